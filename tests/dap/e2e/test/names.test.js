// Issue 19: at a graph-node stop the program's names show this run's values, and evaluating
// never changes the program. The layer is built inside a function and run three times with
// different feeds; the stops are the nodes of `pre = tf.matmul(inp, w) + b`.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture, named } = require('../lib/session');

describe('names at node stops (issue 19.1)', function () {
  const f = Fixture.file('layer_names.py');
  let s;
  before(async () => {
    s = await Session.spawn();
    await s.start(f.path, { functionBreakpoints: [{ name: 'hidden/MatMul' }] });
  });
  after(async () => {
    await s.close();
  });

  it('hover, watch and repl see inp, w and b with the values of each run, in the node frame and its construction frame', async () => {
    for (let run = 0; run < 3; run++) {
      const stop = await s.event('stopped');
      assert.equal(stop.body.description, 'hidden/MatMul (MatMul) on /cpu:0');
      const frames = await s.stackTrace();
      assert.deepEqual(frames.slice(0, 3).map((x) => x.name), ['hidden/MatMul (MatMul)', 'layer [graph construction]', '<module> [graph construction]']);
      for (const frame of [0, 1]) {
        // The feed of this run: [[1, 2, 10 * run]].
        const inp = await s.evaluate('inp', 'hover', frame);
        assert.match(inp.result, new RegExp(`^float32\\[1, 3\\] /cpu:0 min=${run === 0 ? 0 : 1} max=${run === 0 ? 2 : 10 * run} `));
        assert.equal((await s.evaluate('float(tf.reduce_max(inp))', 'repl', frame)).result, `${run === 0 ? 2 : 10 * run}.0`);
        assert.match((await s.evaluate('w', 'watch', frame)).result, /^float32\[3, 4\] \/cpu:0 min=1 max=1 mean=1 /);
        assert.match((await s.evaluate('b', 'hover', frame)).result, /^float32\[4\] \/cpu:0 min=0 max=0 /);
        assert.equal((await s.evaluate('n_out', 'hover', frame)).result, '4');
        // The Add that makes `pre` runs after this node.
        assert.equal((await s.evaluate('pre', 'hover', frame)).result, '<hidden/Add:0 float32[batch, 4]: not computed yet in this run>');
        await assert.rejects(s.evaluate('tf.reduce_max(pre)', 'repl', frame), /not computed yet in this run/);
      }
      // The module's construction frame sees the module's names when h was built.
      assert.match((await s.evaluate('x', 'hover', 2)).result, /^float32\[1, 3\] /);
      // The construction frame's Locals: the function's names, with values.
      const locals = await s.scope(1, 'Locals');
      assert.deepEqual(locals.map((v) => v.name).sort(), ['b', 'inp', 'n_out', 'name', 'pre', 'w']);
      assert.match(named(locals, 'inp').value, /^float32\[1, 3\] /);
      assert.match(named(locals, 'w').value, /^float32\[3, 4\] /);
      await s.dc.continueRequest({ threadId: 1 });
    }
    await s.event('terminated');
    assert.match(s.output('stdout'), /result 23\.0/);
  });
});

describe('names at node stops after the value exists (issue 19.1)', function () {
  const f = Fixture.file('layer_names.py');
  let s;
  after(async () => {
    await s.close();
  });

  it('at the Add node, pre is this run\'s sum', async () => {
    s = await Session.spawn();
    await s.start(f.path, { functionBreakpoints: [{ name: 'hidden/Add' }] });
    for (let run = 0; run < 2; run++) {
      await s.event('stopped');
      assert.equal((await s.evaluate('float(tf.reduce_max(pre))', 'hover', 1)).result, `${run === 0 ? 3 : 13}.0`);
      assert.equal((await s.evaluate('float(tf.reduce_sum(pre - tf.matmul(inp, w)))', 'repl', 0)).result, '0.0');
      await s.dc.continueRequest({ threadId: 1 });
    }
  });
});

/// Runs the fixture with stops at each line of `lines` (names of `#$` lines) and `evaluations`
/// in every frame at every stop; returns the program's stdout.
async function runWith(f, lines, evaluations) {
  const s = await Session.spawn();
  try {
    await s.start(f.path, { lineBreakpoints: lines.map((l) => ({ line: f.line(l) })) });
    let stops = 0;
    for (;;) {
      const { name } = await s.firstOf(['stopped', 'terminated']);
      if (name === 'terminated') break;
      stops++;
      const frames = await s.stackTrace();
      for (const frame of frames.keys())
        for (const [expr, context] of evaluations) await s.evaluate(expr, context, frame).catch(() => undefined);
      await s.dc.continueRequest({ threadId: 1 });
    }
    return { out: s.output('stdout'), stops };
  } finally {
    await s.close();
  }
}

describe('evaluating never changes the program (issue 19.2)', function () {
  this.timeout(120000);
  it('the same program with evaluations at every stop builds the same graph and computes the same result', async () => {
    const f = Fixture.file('layer_names.py');
    const plain = await runWith(f, [], []);
    const evaluated = await runWith(f, ['pre', 'relu', 'call', 'max', 'run'], [
      ['tf.reduce_max(inp)', 'hover'],
      ['tf.reduce_max(h)', 'watch'],
      ['tf.nn.relu(x) * 2.0', 'repl'],
      ['tf.matmul(tf.ones([1, 3]), tf.ones([3, 2]))', 'repl'],
      ['tf.Variable(tf.zeros([2]), name="extra")', 'repl'],
      ['tf.identity(x, name="Max")', 'repl'],
      ['tf.get_variable("gv", [2])', 'repl'],
      ['pre + 1.0', 'hover'],
    ]);
    assert.ok(evaluated.stops >= 8, `only ${evaluated.stops} stops`);
    const ops = (o) => o.split('\n').find((l) => l.startsWith('ops '));
    assert.ok(ops(plain.out), plain.out);
    assert.equal(ops(evaluated.out), ops(plain.out));
    assert.match(plain.out, /result 23\.0/);
    assert.equal(evaluated.out.split('\n').find((l) => l.startsWith('result')), 'result 23.0');
  });
});
