// Issue 19.3: stops for `assert`, `shape_error` and `uncaught` happen at the raise, with the
// frames alive: the locals of the function that raised and its callers can be inspected and
// evaluated; an exception a `try` catches never stops.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture, named } = require('../lib/session');

describe('live exception stops (issue 19.3)', function () {
  let s;
  afterEach(async () => {
    if (s) await s.close();
    s = null;
  });

  it('assert: stops in the raising function with its locals and the caller\'s frame alive; a caught one does not stop', async () => {
    const f = Fixture.file('live_raise.py');
    s = await Session.spawn();
    await s.start(f.path, { filters: ['assert'] });
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'exception');
    assert.match(stop.body.description, /AssertionError \(raised here\)/);
    // safe([10, 20]) was caught before: the stop is in the loop's third step.
    assert.match(s.output('stdout'), /caught -1/);
    const frames = await s.stackTrace();
    assert.equal(frames[0].name, 'check');
    assert.equal(frames[0].line, f.line('assert'));
    assert.equal(frames[1].name, '<module>');
    assert.equal(frames[1].line, f.line('loop'));
    const locals = await s.scope(0, 'Locals');
    assert.equal(named(locals, 'total').value, '4');
    assert.equal(named(locals, 'batch').value, '[2, 2]');
    assert.equal((await s.evaluate('total - limit', 'hover', 0)).result, '1');
    assert.equal((await s.evaluate('step', 'watch', 1)).result, '2');
    const info = (await s.request('exceptionInfo', { threadId: 1 })).body;
    assert.equal(info.exceptionId, 'assert');
    assert.match(info.description, /batch too large: 4/);
    await s.request('continue', { threadId: 1 });
    // One stop only: the post-mortem stop is not repeated.
    const next = await s.firstOf(['stopped', 'exited']);
    assert.equal(next.name, 'exited');
    assert.equal(next.ev.body.exitCode, 1);
  });

  it('shape_error: stops at the raise inside the function building the bad matmul, with its arguments', async () => {
    const f = Fixture.text('shape_live.py', [
      'import tensorflow as tf',
      'x = tf.placeholder(tf.float32, [None, 3], name="x")',
      'def project(inp, n):',
      '    w = tf.ones([n, 2])',
      '    return tf.matmul(inp, w)  #$ matmul',
      'ok = project(x, 3)',
      'bad = project(x, 4)  #$ bad',
      '',
    ].join('\n'));
    s = await Session.spawn();
    await s.start(f.path, { filters: ['shape_error'] });
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'exception');
    const frames = await s.stackTrace();
    assert.equal(frames[0].name, 'project');
    assert.equal(frames[0].line, f.line('matmul'));
    assert.equal(frames[1].line, f.line('bad'));
    assert.equal((await s.evaluate('n', 'hover', 0)).result, '4');
    assert.equal((await s.evaluate('str(w.shape)', 'repl', 0)).result, "'(4, 2)'");
    assert.equal((await s.request('exceptionInfo', { threadId: 1 })).body.exceptionId, 'shape_error');
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.firstOf(['stopped', 'exited'])).name, 'exited');
  });

  it('uncaught: a KeyError in a function stops at the raise; without the filter nothing stops', async () => {
    const f = Fixture.text('key_live.py', [
      'def lookup(table, key):',
      '    found = table[key]  #$ raise',
      '    return found',
      'try:',
      '    lookup({}, "caught")',
      'except KeyError:',
      '    pass',
      'table = {"a": 1}',
      'lookup(table, "missing")',
      '',
    ].join('\n'));
    s = await Session.spawn();
    await s.start(f.path, { filters: ['uncaught'] });
    await s.event('stopped');
    const frames = await s.stackTrace();
    assert.equal(frames[0].name, 'lookup');
    assert.equal(frames[0].line, f.line('raise'));
    assert.equal((await s.evaluate('key', 'hover', 0)).result, "'missing'");
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.firstOf(['stopped', 'exited'])).name, 'exited');
    await s.close();

    s = await Session.spawn();
    await s.start(f.path, { filters: [] });
    assert.equal((await s.event('exited')).body.exitCode, 1);
    assert.equal(s.queues.get('stopped').length, 0);
  });
});
