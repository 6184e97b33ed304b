// Issue 19.6: every request gets a response, also between initialize and launch; launch refuses
// what is not a regular file; an evaluation that allocates too much or runs too long fails with
// a clear message and the session goes on.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Session, Fixture } = require('../lib/session');

describe('every request gets a response (issue 19.6)', function () {
  it('between initialize and launch: each request is answered (an error says why)', async () => {
    const s = await Session.spawn();
    try {
      await s.request('initialize', { adapterID: 'tensorlens', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
      const f = Fixture.file('layer_names.py');
      const bp = await s.request('setBreakpoints', { source: { path: f.path }, breakpoints: [{ line: f.line('pre') }] }, 3000);
      assert.equal(bp.body.breakpoints[0].verified, true);
      await s.request('setExceptionBreakpoints', { filters: ['uncaught'] }, 3000);
      await s.request('setFunctionBreakpoints', { breakpoints: [{ name: 'MatMul' }] }, 3000);
      await assert.rejects(s.request('stackTrace', { threadId: 1 }, 3000), /no program is running: launch one first/);
      await assert.rejects(s.request('evaluate', { expression: '1 + 1', context: 'repl' }, 3000), /no program is running/);
      await assert.rejects(s.request('continue', { threadId: 1 }, 3000), /not stopped|no program/);
      await assert.rejects(s.request('noSuchCommand', {}, 3000), /unknown|unrecognized|not supported/i);
      const threads = await s.request('threads', {}, 3000);
      assert.ok(Array.isArray(threads.body.threads));
      // configurationDone with nothing launched: the session ends as a run would.
      await s.request('configurationDone', {}, 3000);
      await s.event('terminated', 3000);
    } finally {
      await s.close();
    }
  });

  for (const special of ['/dev/zero', '/dev/stdin']) {
    it(`launch of ${special} is refused at once`, async () => {
      const s = await Session.spawn();
      try {
        await s.request('initialize', { adapterID: 'tensorlens' });
        const t0 = Date.now();
        await assert.rejects(s.request('launch', { program: special }, 5000), /not a regular file|cannot open/);
        assert.ok(Date.now() - t0 < 3000);
      } finally {
        await s.close();
      }
    });
  }

  it('launch of a directory or a FIFO is refused', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tlens-e2e-'));
    const fifo = path.join(dir, 'fifo.py');
    require('node:child_process').execFileSync('mkfifo', [fifo]);
    const s = await Session.spawn();
    try {
      await s.request('initialize', { adapterID: 'tensorlens' });
      await assert.rejects(s.request('launch', { program: dir }, 5000), /directory|regular/);
      await assert.rejects(s.request('launch', { program: fifo }, 5000), /regular/);
    } finally {
      await s.close();
    }
  });
});

describe('evaluations run under a memory and a time cap (issue 19.6)', function () {
  const f = Fixture.file('graph_loop.py');
  let s;
  before(async () => {
    s = await Session.spawn();
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('run') }] });
    await s.event('stopped');
  });
  after(async () => {
    await s.close();
  });

  it('a huge tensor is refused before it is allocated; the session goes on', async () => {
    const t0 = Date.now();
    await assert.rejects(s.evaluate('tf.zeros([100000, 100000])'), /evaluation stopped: it needs more memory than the debugger allows an evaluation \(1\.0 GiB\): .*37\.3 GiB requested.*the session goes on/s);
    await assert.rejects(s.evaluate('tf.ones([50000, 50000]) * 2.0', 'hover'), /evaluation stopped: it needs more memory/);
    assert.ok(Date.now() - t0 < 10000);
    assert.equal((await s.evaluate('1 + 1')).result, '2');
  });

  // Each 576 MB tensor fits under the cap; the second one together with the first does not.
  it('allocations that together pass the cap stop the evaluation', async () => {
    await assert.rejects(
      s.evaluate('[tf.ones([12000, 12000]) for k in range(10)]', 'watch'),
      /evaluation stopped: it (allocated|needs) more/,
    );
    assert.equal((await s.evaluate('2 + 2')).result, '4');
  });

  it('an endless loop stops at the time cap with a clear message', async () => {
    const t0 = Date.now();
    await assert.rejects(
      s.request('evaluate', { expression: 'while True:\n    pass', context: 'repl', frameId: (await s.stackTrace())[0].id }, 30000),
      /evaluation stopped: it ran past the debugger's time cap for evaluations \(5 s\)/,
    );
    const took = Date.now() - t0;
    assert.ok(took >= 4500 && took < 15000, `took ${took} ms`);
    assert.equal((await s.evaluate('i', 'watch')).result, '0');
    // The program goes on as before.
    await s.dc.continueRequest({ threadId: 1 });
    await s.event('stopped');
    assert.equal((await s.evaluate('i', 'watch')).result, '1');
  });
});
