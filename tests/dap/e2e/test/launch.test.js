// Every launch argument (program, args, cwd, env, stopOnEntry, mode, device, checkNumerics; the
// last is in numerics.test.js), through DebugClient and the real `tlens dap`.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Session, Fixture } = require('../lib/session');

describe('launch arguments', function () {
  let s;
  beforeEach(async () => {
    s = await Session.spawn();
  });
  afterEach(async () => {
    await s.close();
  });

  it('args, cwd and env reach the program; a relative program is taken from cwd', async () => {
    const f = Fixture.file('launch_args.py');
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'tlens-e2e-cwd-'));
    fs.copyFileSync(f.path, path.join(cwd, 'prog.py'));
    await s.start('prog.py', { launch: { cwd, args: ['one', 'two words'], env: { TLENS_E2E_SET: 'yes' } } });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    const out = s.output('stdout');
    assert.match(out, /argv \['one', 'two words'\]\n/);
    assert.match(out, new RegExp(`cwd ${fs.realpathSync(cwd)}\\n`));
    assert.match(out, /set yes\n/);
  });

  it('"env": {"NAME": null} removes a variable', async () => {
    process.env.TLENS_E2E_REMOVED = 'inherited';
    try {
      const f = Fixture.file('launch_args.py');
      await s.start(f.path, { launch: { env: { TLENS_E2E_SET: 'yes', TLENS_E2E_REMOVED: null } } });
      assert.equal((await s.event('exited')).body.exitCode, 0);
      assert.match(s.output('stdout'), /removed None\n/);
    } finally {
      delete process.env.TLENS_E2E_REMOVED;
    }
  });

  it('stopOnEntry stops at the first line with reason "entry"', async () => {
    const f = Fixture.file('launch_args.py');
    await s.start(f.path, { launch: { stopOnEntry: true } });
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'entry');
    assert.equal((await s.stackTrace())[0].line, f.find('import os'));
    assert.equal(s.output('stdout'), '');
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
  });

  it('mode "auto" traces a tf.function once; mode "eager" runs its body as Python at every call', async () => {
    const f = Fixture.file('tf_function.py');
    await s.start(f.path);
    await s.event('exited');
    assert.equal((s.output('stdout').match(/eagerly:/g) || []).length, 1);
    assert.match(s.output('stdout'), /eagerly: False\n/);
    await s.close();

    s = await Session.spawn();
    await s.start(f.path, { launch: { mode: 'eager' }, lineBreakpoints: [{ line: f.line('body') }] });
    for (let call = 1; call <= 2; ++call) {
      const stop = await s.event('stopped');
      assert.equal(stop.body.reason, 'breakpoint');
      const frames = await s.stackTrace();
      assert.equal(frames[0].name, 'double');
      assert.equal((await s.evaluate('float(x)')).result, `${call}.0`);
      await s.request('continue', { threadId: 1 });
    }
    assert.equal((await s.event('exited')).body.exitCode, 0);
    assert.equal((s.output('stdout').match(/eagerly: True\n/g) || []).length, 2);
  });

  it('mode "graph" builds graphs (a TF1-style program runs as TF1 would)', async () => {
    const f = Fixture.text('graph_mode.py', 'import tensorflow as tf\nprint("eager", tf.executing_eagerly())\n');
    await s.start(f.path, { launch: { mode: 'graph' } });
    await s.event('exited');
    assert.match(s.output('stdout'), /eager False\n/);
  });

  it('device "gpu" on a machine without a GPU says why and runs on the CPU', async () => {
    const f = Fixture.file('graph_loop.py');
    await s.start(f.path, { launch: { device: 'gpu' }, filters: [] });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    assert.match(s.output('console'), /no GPU \(.*\); ops run on \/cpu:0\. "virtualGpus": N simulates N GPUs/);
  });

  it('virtualGpus places the graph on simulated GPUs', async () => {
    const f = Fixture.file('graph_loop.py');
    await s.start(f.path, { launch: { virtualGpus: 1 }, functionBreakpoints: [{ name: 'Relu' }] });
    assert.equal((await s.event('stopped')).body.description, 'Relu (Relu) on /gpu:0');
  });

  it('disconnect in the middle of a run ends the program and the adapter process', async () => {
    const f = Fixture.file('long_loop.py');
    await s.start(f.path);
    await new Promise((r) => setTimeout(r, 200));
    const proc = s.dc._adapterProcess; // DebugClient's child: `tlens dap`
    const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
    await s.request('disconnect', {});
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 5000))]);
    assert.equal(code, 0);
  });

  it('bad launch arguments get error responses and the adapter keeps answering', async () => {
    await s.request('initialize', { adapterID: 'tensorlens' });
    await assert.rejects(s.request('launch', {}), /invalid arguments/);
    await assert.rejects(s.request('launch', { program: 'x.py', mode: 'fast' }), /mode must be/);
    await assert.rejects(s.request('launch', { program: '/no/such/file.py' }));
    await assert.rejects(s.request('noSuchRequest', {}), /unknown request 'noSuchRequest'/);
    const threads = await s.request('threads');
    assert.equal(threads.body.threads[0].id, 1);
  });
});
