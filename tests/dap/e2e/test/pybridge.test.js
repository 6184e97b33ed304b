// The Python bridge under the real debugger: a stop in the program's own function called back
// from pandas, and a C extension that crashes the process. Needs Debian's python3-pandas (the
// test command installs it) and a tlens built with the bridge; skips, saying why, without them.
'use strict';

const assert = require('node:assert/strict');
const cp = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { Session, Fixture, tlensPath } = require('../lib/session');

const kPython = '/usr/bin/python3';

/// Why the bridge tests cannot run here, or '' when they can.
function bridgeMissing(modules) {
  if (!fs.existsSync(path.join(path.dirname(tlensPath()), 'libtlens_pybridge.so'))) return 'tlens was built without the Python bridge';
  const probe = cp.spawnSync(kPython, ['-c', `import ${modules}`]);
  if (probe.status !== 0) return `${kPython} cannot import ${modules}`;
  return '';
}

describe('the Python bridge under the debugger', function () {
  let s;
  afterEach(async () => {
    if (s) await s.close();
    s = undefined;
  });

  it('stops in a function called from df.apply, under a frame for the library call', async function () {
    const why = bridgeMissing('pandas');
    if (why) this.skip(why);
    const f = Fixture.file('bridge_apply.py');
    s = await Session.spawn();
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('inside') }], launch: { python: kPython } });
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'breakpoint');
    const frames = await s.stackTrace();
    assert.equal(frames[0].name, 'scale');
    assert.equal(frames[0].line, f.line('inside'));
    assert.equal(frames[1].name, 'pandas DataFrame.apply [python]');
    assert.equal(frames[1].line, f.line('apply'));
    assert.equal(frames[frames.length - 1].name, '<module>');
    // The row is a pandas Series proxy: the debugger shows and evaluates it as pandas does.
    assert.equal((await s.evaluate('int(row["a"])')).result, '1');
    await s.request('setBreakpoints', { source: { path: f.path }, breakpoints: [] });
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    await s.waitForOutput('sum 60');
  });

  it('a C extension that crashes the process ends the session with its Python stack', async function () {
    const why = bridgeMissing('ctypes');
    if (why) this.skip(why);
    const f = Fixture.file('bridge_crash.py');
    s = await Session.spawn();
    const site = path.join(path.dirname(f.path), 'bridge_site');
    await s.start(f.path, { launch: { python: kPython, env: { PYTHONPATH: site } } });
    // Instead of vanishing, the adapter's last events: the report, exited (128 + SIGSEGV), terminated.
    assert.equal((await s.event('exited')).body.exitCode, 128 + 11);
    await s.event('terminated');
    const stderr = s.output('stderr');
    assert.match(stderr, /tlens: the program crashed inside a C extension of the embedded Python/);
    assert.match(stderr, /crasher\.py", line 7 in crash/);
    assert.match(s.output('stdout'), /before\n/);
    assert.doesNotMatch(s.output('stdout'), /after/);
    // The adapter is gone: a disconnect would only meet a closed pipe.
    s.dc.stopAdapter();
    s = undefined;
  });
});
