// Over stdio, the adapter's stdout is the protocol's stream. What other code writes to fd 1 (a
// child process of os.system, C code of a library in the embedded Python) must arrive as output
// events in order with the program's own, and never corrupt a frame.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Session, Fixture, tlensPath } = require('../lib/session');

describe("the process's stdout under the debugger", function () {
  let s;
  afterEach(async () => {
    if (s) await s.close();
  });

  it('writes to fd 1 from the embedded Python and its child process reach the client as output, in order', async function () {
    if (!fs.existsSync(path.join(path.dirname(tlensPath()), 'libtlens_pybridge.so'))) this.skip();
    const f = Fixture.file('child_output.py');
    s = await Session.spawn();
    const site = path.join(path.dirname(f.path), 'bridge_site');
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('after') }], launch: { python: '/usr/bin/python3', env: { PYTHONPATH: site } } });
    assert.equal((await s.event('stopped')).body.reason, 'breakpoint');
    // The session still answers after those bytes passed by.
    assert.equal((await s.evaluate('1 + 1')).result, '2');
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    assert.equal(s.output('stdout'), 'before\nraw write to fd 1\nfrom-a-child-of-python\nafter\n');
  });
});
