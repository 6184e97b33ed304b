// Stepping by Python line and by graph node, pause inside a long Python loop and between the
// nodes of a long graph run, and terminate, through DebugClient and the real `tlens dap`.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture, named } = require('../lib/session');

describe('stepping and pausing', function () {
  let s;
  beforeEach(async () => {
    s = await Session.spawn();
  });
  afterEach(async () => {
    await s.close();
  });

  it('next at a node stop goes to the next node of the run; stepOut returns to Python', async () => {
    const f = Fixture.file('graph_loop.py');
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('matmul'), condition: 'tf.reduce_max(y) > 4' }] });
    let stop = await s.event('stopped');
    assert.equal(stop.body.description, 'y (MatMul) on /cpu:0');

    await s.request('next', { threadId: 1 });
    stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'step');
    assert.equal(stop.body.description, 'Relu (Relu) on /cpu:0');
    const frames = await s.stackTrace();
    assert.equal(frames[0].name, 'Relu (Relu)');
    assert.equal(frames[0].line, f.line('relu'));
    // The Run scope now holds both nodes of this run, in order.
    const run = (await s.scope(0, 'Run')).map((v) => v.name);
    assert.deepEqual(run.slice(-2).map((n) => n.replace(/^\d+ /, '')), ['y:0 (MatMul)', 'Relu:0 (Relu)']);
    assert.match(named(await s.scope(0, 'Node'), 'in y:0').value, /min=5 max=5/);

    await s.request('stepOut', { threadId: 1 });
    stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'step');
    const after = await s.stackTrace();
    assert.equal(after[0].name, '<module>');
    assert.equal(after[0].line, f.line('done'));
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
  });

  it('next, stepIn and stepOut by Python line', async () => {
    const f = Fixture.text('step.py', [
      'def double(v):',
      '    r = v * 2  #$ inside',
      '    return r',
      '',
      '',
      'a = double(1)  #$ first',
      'b = double(2)  #$ second',
      'print(a + b)  #$ last',
      '',
    ].join('\n'));
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('first') }] });
    await s.event('stopped');
    await s.request('next', { threadId: 1 });
    assert.equal((await s.event('stopped')).body.reason, 'step');
    assert.equal((await s.stackTrace())[0].line, f.line('second'));
    assert.equal((await s.evaluate('a')).result, '2');
    await s.request('stepIn', { threadId: 1 });
    await s.event('stopped');
    let frames = await s.stackTrace();
    assert.equal(frames[0].name, 'double');
    assert.equal(frames[0].line, f.line('inside'));
    assert.equal(frames[1].line, f.line('second'));
    assert.equal((await s.evaluate('v')).result, '2');
    await s.request('stepOut', { threadId: 1 });
    await s.event('stopped');
    frames = await s.stackTrace();
    assert.equal(frames[0].line, f.line('last'));
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    assert.match(s.output('stdout'), /^6\n$/);
  });

  it('pause stops a long Python loop within a bounded time, twice; terminate ends it', async () => {
    const f = Fixture.file('long_loop.py');
    await s.start(f.path);
    await new Promise((r) => setTimeout(r, 300));
    for (let round = 0; round < 2; ++round) {
      const t0 = Date.now();
      await s.request('pause', { threadId: 1 });
      const stop = await s.event('stopped', 5000);
      const ms = Date.now() - t0;
      assert.equal(stop.body.reason, 'pause');
      // The documented bound is 100 ms; a loaded 2-core machine gets 10x slack.
      assert.ok(ms < 1000, `pause took ${ms} ms`);
      process.stdout.write(`      (pause ${round + 1}: stopped ${ms} ms after the request)\n`);
      const frames = await s.stackTrace();
      assert.equal(frames[0].name, '<module>');
      assert.ok([f.line('body'), f.line('body') + 1, f.find('while i <')].includes(frames[0].line), `line ${frames[0].line}`);
      assert.ok(Number((await s.evaluate('i')).result) > 0);
      await s.request('continue', { threadId: 1 });
      await new Promise((r) => setTimeout(r, 100));
    }
    await s.request('terminate');
    const exited = await s.event('exited');
    assert.equal(exited.body.exitCode, 130);
    await s.event('terminated');
    // The adapter still answers after the program is gone.
    assert.equal((await s.request('threads')).body.threads[0].id, 1);
  });

  it('pause inside a long graph run stops between two of its nodes', async () => {
    const f = Fixture.file('long_graph.py');
    await s.start(f.path, { functionBreakpoints: [{ name: 'step0' }] });
    // The first node of the chain: the run has started.
    assert.equal((await s.event('stopped')).body.description, 'step0 (MatMul) on /cpu:0');
    await s.request('setFunctionBreakpoints', { breakpoints: [] });
    await s.request('continue', { threadId: 1 });
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    await s.request('pause', { threadId: 1 });
    const stop = await s.event('stopped', 5000);
    const ms = Date.now() - t0;
    assert.equal(stop.body.reason, 'pause');
    assert.match(stop.body.description, /^step(\d+) \(MatMul\) on \/cpu:0$/);
    const k = Number(/^step(\d+)/.exec(stop.body.description)[1]);
    assert.ok(k > 0 && k < 399, `paused at step${k}`);
    assert.ok(ms < 1000, `pause took ${ms} ms`);
    process.stdout.write(`      (pause in a graph run: at step${k}, ${ms} ms after the request)\n`);
    assert.equal((await s.stackTrace())[0].line, f.line('chain'));
    await s.request('terminate');
    assert.equal((await s.event('exited')).body.exitCode, 130);
  });
});
