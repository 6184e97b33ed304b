// Step back (DAP stepBack / reverseContinue). Being built in the debugger; these tests skip
// themselves only while the adapter's initialize response lacks `supportsStepBack`, so they turn
// on by themselves once it says it can.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture } = require('../lib/session');

describe('step back (enabled when initialize says supportsStepBack)', function () {
  let s;
  let caps;
  beforeEach(async function () {
    s = await Session.spawn();
    caps = (await s.request('initialize', { adapterID: 'tensorlens', linesStartAt1: true, columnsStartAt1: true })).body;
    if (!caps.supportsStepBack) {
      await s.close();
      s = null;
      this.skip();
    }
  });
  afterEach(async () => {
    if (s) await s.close();
  });

  it('stepBack at a Python line goes back through the lines that ran, with the values they saw', async () => {
    const f = Fixture.text('back.py', ['a = 1  #$ one', 'a = a + 10  #$ two', 'a = a * 2  #$ three', 'print(a)', ''].join('\n'));
    await s.request('launch', { program: f.path });
    await s.configure(f.path, { lineBreakpoints: [{ line: f.line('two') }] });
    await s.event('stopped');
    await s.request('next', { threadId: 1 });
    assert.equal((await s.event('stopped')).body.reason, 'step');
    await s.request('stepBack', { threadId: 1 });
    const back = await s.event('stopped');
    assert.equal(back.body.reason, 'step');
    assert.equal(back.body.description, `line ${f.line('two')} in <module> (stepped back)`);
    assert.equal((await s.stackTrace())[0].line, f.line('two'));
    // The names as that line started: a was still 1; hover and watch see the same.
    assert.equal((await s.evaluate('a')).result, '1');
    assert.equal((await s.evaluate('a', 'hover')).result, '1');
    const globals = await s.scope(0, 'Globals (as the line started)');
    assert.equal(globals.find((v) => v.name === 'a').value, '1');
    // next moves forward to the live stop; continue runs the program on from there.
    await s.request('next', { threadId: 1 });
    await s.event('stopped');
    assert.equal((await s.stackTrace())[0].line, f.line('three'));
    assert.equal((await s.evaluate('a')).result, '11');
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    assert.match(s.output('stdout'), /^22\n$/);
  });

  it('stepBack at a node stop goes to the previous node of the run', async () => {
    const f = Fixture.file('graph_loop.py');
    await s.request('launch', { program: f.path });
    await s.configure(f.path, { functionBreakpoints: [{ name: 'Relu' }] });
    assert.equal((await s.event('stopped')).body.description, 'Relu (Relu) on /cpu:0');
    await s.request('stepBack', { threadId: 1 });
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'step');
    assert.equal(stop.body.description, 'y (MatMul) on /cpu:0 (stepped back)');
    assert.equal((await s.stackTrace())[0].line, f.line('matmul'));
  });
});
