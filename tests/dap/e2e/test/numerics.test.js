// The nan_inf exception filter on the tfdbg tutorial's bug (examples/tfdbg_nan.py), and the other
// exception filters, through DebugClient and the real `tlens dap`.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture, named } = require('../lib/session');

describe('exception filters', function () {
  let s;
  beforeEach(async () => {
    s = await Session.spawn();
  });
  afterEach(async () => {
    await s.close();
  });

  it('initialize offers nan_inf (on by default), shape_error, assert and uncaught', async () => {
    const caps = (await s.request('initialize', { adapterID: 'tensorlens' })).body;
    const filters = caps.exceptionBreakpointFilters.map((f) => f.filter);
    for (const f of ['nan_inf', 'shape_error', 'assert', 'uncaught']) assert.ok(filters.includes(f), `no filter ${f} in ${filters}`);
    assert.equal(caps.exceptionBreakpointFilters.find((f) => f.filter === 'nan_inf').default, true);
    assert.equal(caps.supportsExceptionInfoRequest, true);
  });

  it('nan_inf stops at the tf.log line of tfdbg_nan.py and names Log, -inf and the zeros of softmax', async () => {
    const f = Fixture.file('examples/tfdbg_nan.py');
    await s.start(f.path, { filters: ['nan_inf'] });
    const stop = await s.event('stopped', 120000);
    assert.equal(stop.body.reason, 'exception');
    assert.match(stop.body.description, /cross_entropy\/Log \(Log\)/);

    const frames = await s.stackTrace();
    assert.equal(frames[0].line, f.find('tf.log(y)'));
    assert.equal(frames[0].name, 'cross_entropy/Log (Log)');
    assert.equal(frames[0].source.path, f.path);
    // The sess.run call site is on the stack below the node.
    assert.ok(frames.some((fr) => fr.name === '<module>' && fr.line === f.find('sess.run([accuracy')));

    const info = (await s.request('exceptionInfo', { threadId: 1 })).body;
    assert.equal(info.exceptionId, 'nan_inf');
    assert.match(info.description, /\bLog\b/);
    assert.match(info.description, /-inf/);
    assert.match(info.description, /because its input softmax:0 held \d+ exact zeros/);
    assert.match(info.description, new RegExp(`tfdbg_nan\\.py:${f.find('tf.log(y)')}`));
    assert.equal(info.breakMode, 'always');

    // The Node scope: the input that held the zeros and the -inf output.
    const node = await s.scope(0, 'Node');
    const input = named(node, 'in softmax:0');
    assert.match(input.value, /^float32\[100, 10\] \/cpu:0 min=0 /);
    assert.match(named(node, 'out cross_entropy/Log:0').value, /^float32\[100, 10\] .* inf=[1-9]\d*$/);
    // The Run scope lists what ran before it, in order: the forward pass up to softmax, nothing
    // of cross_entropy/ (Log's consumers never ran).
    const run = (await s.scope(0, 'Run')).map((v) => v.name);
    assert.ok(run.length > 5, JSON.stringify(run));
    assert.match(run[0], /hidden\/MatMul:0 \(MatMul\)$/);
    assert.match(run[run.length - 1], /softmax:0 \(Softmax\)$/);
    assert.ok(!run.some((n) => n.includes('cross_entropy/')), JSON.stringify(run));

    // Continuing raises the error the program gets without a debugger.
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited', 60000)).body.exitCode, 1);
    assert.match(s.output('stderr'), /InvalidArgumentError: Node cross_entropy\/Log \(Log\)/);
  });

  it('launch with checkNumerics: false runs tfdbg_nan.py to the end without stopping', async () => {
    const f = Fixture.file('examples/tfdbg_nan.py');
    await s.start(f.path, { launch: { checkNumerics: false }, filters: ['nan_inf'] });
    assert.equal((await s.event('exited', 120000)).body.exitCode, 0);
    assert.equal(s.queues.get('stopped').length, 0);
    assert.match(s.output('stdout'), /Accuracy at step 9: .* loss: nan/);
  });

  it('shape_error stops post mortem at the matmul of shape_bug.py', async () => {
    const f = Fixture.file('examples/shape_bug.py');
    await s.start(f.path, { filters: ['nan_inf', 'shape_error'] });
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'exception');
    assert.equal((await s.stackTrace())[0].line, f.find('logits = tf.matmul(hidden, w2)'));
    const info = (await s.request('exceptionInfo', { threadId: 1 })).body;
    assert.equal(info.exceptionId, 'shape_error');
    assert.match(info.description, /Dimensions must be equal/);
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 1);
  });

  it('assert and uncaught stop post mortem at the failing line; without a filter the error ends the session', async () => {
    const f = Fixture.text('raise.py', [
      'import tensorflow as tf',
      'def check(v):',
      '    assert v > 0, "v must be positive"  #$ assert',
      'check(1)',
      'data = {"a": 1}',
      'check(-1)',
      '',
    ].join('\n'));
    await s.start(f.path, { filters: ['assert'] });
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'exception');
    assert.equal((await s.stackTrace())[0].line, f.line('assert'));
    const info = (await s.request('exceptionInfo', { threadId: 1 })).body;
    assert.equal(info.exceptionId, 'assert');
    assert.match(info.description, /v must be positive/);
    assert.equal((await s.evaluate('data["a"] + 1')).result, '2', 'post mortem, the console sees the globals');
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 1);
    await s.close();

    const g = Fixture.text('keyerror.py', ['d = {}', 'print(d["missing"])  #$ raise', ''].join('\n'));
    s = await Session.spawn();
    await s.start(g.path, { filters: ['uncaught'] });
    assert.equal((await s.event('stopped')).body.reason, 'exception');
    assert.equal((await s.stackTrace())[0].line, g.line('raise'));
    assert.equal((await s.request('exceptionInfo', { threadId: 1 })).body.exceptionId, 'uncaught');
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 1);
    await s.close();

    s = await Session.spawn();
    await s.start(g.path, { filters: [] });
    assert.equal((await s.event('exited')).body.exitCode, 1);
    assert.equal(s.queues.get('stopped').length, 0);
    assert.match(s.output(), /KeyError: 'missing'/);
  });
});
