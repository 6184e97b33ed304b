import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import {
  DebugConfig,
  finishDebugConfig,
  kDefaultSettings,
  readSettings,
  resolveDebugConfig,
  resolveTlensPath,
} from '../../src/config';

const python = { path: '/ws/prog.py', languageId: 'python' };

function config(values: Record<string, unknown>) {
  return { get: <T>(k: string) => values[k] as T | undefined };
}

function ok(r: ReturnType<typeof resolveDebugConfig>): DebugConfig {
  if ('error' in r) assert.fail(`unexpected error: ${r.error}`);
  return r.config;
}

function err(r: ReturnType<typeof resolveDebugConfig>): string {
  if (!('error' in r)) assert.fail(`expected an error, got ${JSON.stringify(r.config)}`);
  return r.error;
}

describe('settings', () => {
  it('defaults every setting when nothing is configured', () => {
    assert.deepEqual(readSettings(config({})), kDefaultSettings);
  });

  it('reads configured values', () => {
    const s = readSettings(
      config({
        path: '/opt/tlens/bin/tlens',
        'languageServer.enabled': false,
        'analysis.budgetMs': 1500,
        'inlayHints.enabled': false,
        virtualGpus: 2,
        'trace.server': 'verbose',
      }),
    );
    assert.deepEqual(s, {
      tlensPath: '/opt/tlens/bin/tlens',
      languageServerEnabled: false,
      analysisBudgetMs: 1500,
      inlayHints: false,
      virtualGpus: 2,
      trace: 'verbose',
    });
  });

  it('falls back to defaults for ill-typed or empty values', () => {
    const s = readSettings(
      config({ path: '  ', 'languageServer.enabled': 'yes', 'analysis.budgetMs': -3, virtualGpus: -1, 'trace.server': 'loud' }),
    );
    assert.equal(s.virtualGpus, 0);
    assert.equal(readSettings(config({ virtualGpus: 1.5 })).virtualGpus, 0);
    assert.equal(s.tlensPath, 'tlens');
    assert.equal(s.languageServerEnabled, true);
    assert.equal(s.analysisBudgetMs, 10000);
    assert.equal(s.trace, 'off');
  });
});

describe('the tlens path setting', () => {
  it('keeps a bare command name so PATH is searched', () => {
    assert.equal(resolveTlensPath('tlens', '/ws', '/home/u'), 'tlens');
  });

  it('expands a leading ~ to the home folder', () => {
    assert.equal(resolveTlensPath('~/bin/tlens', '/ws', '/home/u'), '/home/u/bin/tlens');
  });

  it('expands ${workspaceFolder}', () => {
    assert.equal(resolveTlensPath('${workspaceFolder}/build/tlens', '/ws', '/home/u'), '/ws/build/tlens');
  });

  it('takes a relative path from the first workspace folder', () => {
    assert.equal(resolveTlensPath('build/tlens', '/ws', '/home/u'), '/ws/build/tlens');
    assert.equal(resolveTlensPath('./build/../build/tlens', '/ws', '/home/u'), '/ws/build/tlens');
  });

  it('normalises an absolute path and treats an empty setting as the default', () => {
    assert.equal(resolveTlensPath('/opt//tlens/./tlens', undefined, '/home/u'), '/opt/tlens/tlens');
    assert.equal(resolveTlensPath('   ', '/ws', '/home/u'), 'tlens');
  });
});

describe('launch configuration resolution', () => {
  it('debugs the current Python file when there is no launch.json', () => {
    const c = ok(resolveDebugConfig({}, python, true));
    assert.equal(c.type, 'tensorlens');
    assert.equal(c.request, 'launch');
    assert.equal(c.program, '${file}');
    assert.equal(c.cwd, '${workspaceFolder}');
    assert.deepEqual(c.args, []);
    assert.equal(c.mode, 'auto');
    assert.equal(c.checkNumerics, true);
    assert.equal(c.stopOnEntry, false);
  });

  it('says to open a Python file when there is no launch.json and no Python editor', () => {
    assert.match(err(resolveDebugConfig(undefined, undefined, true)), /open a Python file/);
    assert.match(err(resolveDebugConfig({}, { path: '/ws/a.md', languageId: 'markdown' }, true)), /open a Python file/);
  });

  it('rejects a launch configuration without a program, naming it and the fix', () => {
    const e = err(resolveDebugConfig({ type: 'tensorlens', request: 'launch', name: 'train' }, python, true));
    assert.match(e, /"train" has no "program"/);
    assert.match(e, /\$\{file\}/);
    assert.match(err(resolveDebugConfig({ type: 'tensorlens', request: 'launch', name: 'x', program: ' ' }, python, true)), /no "program"/);
  });

  it('keeps what the user set and fills only what is missing', () => {
    const c = ok(
      resolveDebugConfig(
        {
          type: 'tensorlens',
          request: 'launch',
          name: 'n',
          program: '/ws/train.py',
          args: ['--steps', '10'],
          mode: 'graph',
          device: 'gpu',
          checkNumerics: false,
          stopOnEntry: true,
          env: { TF_CPP_MIN_LOG_LEVEL: '2' },
        },
        undefined,
        false,
      ),
    );
    assert.deepEqual(c.args, ['--steps', '10']);
    assert.equal(c.mode, 'graph');
    assert.equal(c.device, 'gpu');
    assert.equal(c.checkNumerics, false);
    assert.equal(c.stopOnEntry, true);
    assert.equal(c.cwd, undefined, 'no workspace folder: cwd is decided after substitution');
  });

  it('rejects an unknown mode, non-string args, a bad env and non-boolean flags', () => {
    const base = { type: 'tensorlens', request: 'launch', name: 'n', program: '/p.py' };
    assert.match(err(resolveDebugConfig({ ...base, mode: 'lazy' }, python, true)), /"mode" must be one of auto, eager, graph/);
    assert.match(err(resolveDebugConfig({ ...base, args: '--x' }, python, true)), /"args" must be an array/);
    assert.match(err(resolveDebugConfig({ ...base, args: [1] }, python, true)), /"args" must be an array/);
    assert.match(err(resolveDebugConfig({ ...base, env: ['A=1'] }, python, true)), /"env" must be an object/);
    assert.match(err(resolveDebugConfig({ ...base, device: 0 }, python, true)), /"device"/);
    assert.match(err(resolveDebugConfig({ ...base, device: 'tpu' }, python, true)), /"device" must be "cpu" or "gpu"/);
    assert.match(err(resolveDebugConfig({ ...base, virtualGpus: -1 }, python, true)), /"virtualGpus" must be a whole number/);
    assert.match(err(resolveDebugConfig({ ...base, virtualGpus: 1.5 }, python, true)), /"virtualGpus" must be a whole number/);
    assert.equal(ok(resolveDebugConfig({ ...base, virtualGpus: 2 }, python, true)).virtualGpus, 2);
    assert.match(err(resolveDebugConfig({ ...base, checkNumerics: 'yes' }, python, true)), /true or false/);
  });

  it('rejects an unknown request', () => {
    assert.match(err(resolveDebugConfig({ type: 'tensorlens', request: 'run', name: 'n' }, python, true)), /"launch" or "attach"/);
  });

  it('runs in the program folder when no cwd is given, and resolves a relative program from cwd', () => {
    const a = finishDebugConfig({ type: 'tensorlens', request: 'launch', name: 'n', program: '/ws/sub/p.py' });
    assert.ok(!('error' in a));
    if (!('error' in a)) assert.equal(a.config.cwd, '/ws/sub');
    const b = finishDebugConfig({ type: 'tensorlens', request: 'launch', name: 'n', program: 'sub/p.py', cwd: '/ws' });
    if ('error' in b) assert.fail(b.error);
    assert.equal(b.config.program, path.join('/ws', 'sub', 'p.py'));
  });

  it('reports a variable VS Code could not substitute', () => {
    const r = finishDebugConfig({ type: 'tensorlens', request: 'launch', name: 'n', program: '${file}' });
    assert.ok('error' in r && /unresolved variable/.test(r.error));
  });
});

describe('attach configuration resolution', () => {
  const base = { type: 'tensorlens', request: 'attach', name: 'remote' };

  it('defaults the host to the loopback address', () => {
    const c = ok(resolveDebugConfig({ ...base, port: 4711 }, undefined, true));
    assert.equal(c.port, 4711);
    assert.equal(c.host, '127.0.0.1');
  });

  it('accepts a port written as a string (from an input variable)', () => {
    assert.equal(ok(resolveDebugConfig({ ...base, port: '5678', host: 'localhost' }, undefined, true)).port, 5678);
  });

  it('rejects a missing or out-of-range port', () => {
    assert.match(err(resolveDebugConfig(base, undefined, true)), /"remote" has no "port"/);
    assert.match(err(resolveDebugConfig({ ...base, port: 70000 }, undefined, true)), /between 1 and 65535/);
    assert.match(err(resolveDebugConfig({ ...base, port: 'abc' }, undefined, true)), /between 1 and 65535/);
  });

  it('does not require a program', () => {
    assert.equal(ok(resolveDebugConfig({ ...base, port: 1 }, undefined, true)).program, undefined);
  });
});
