// The debug console: expressions in the stopped frame (tensor ops run eagerly) and tfdbg's
// commands `lt`, `pt`, `ni`, plus completions, through DebugClient and the real `tlens dap`.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture } = require('../lib/session');

describe('evaluate and the tfdbg console', function () {
  const f = Fixture.file('graph_loop.py');
  let s;
  before(async () => {
    s = await Session.spawn();
    // The Relu node in the first run: the Run scope holds y:0 and Relu:0.
    await s.start(f.path, { functionBreakpoints: [{ name: 'Relu' }] });
    const stop = await s.event('stopped');
    assert.equal(stop.body.description, 'Relu (Relu) on /cpu:0');
  });
  after(async () => {
    await s.close();
  });

  it('lt lists the tensors of this run in order; -t filters by op type, -n by a regex matching the whole node name', async () => {
    const all = (await s.evaluate('lt')).result.trimEnd().split('\n');
    assert.equal(all.length, 2);
    assert.match(all[0], /^\[0\] y:0 \(MatMul\) float32\[1, 2\] \/cpu:0 min=3 max=3 /);
    assert.match(all[1], /^\[1\] Relu:0 \(Relu\) float32\[1, 2\] /);
    assert.deepEqual((await s.evaluate('lt -t MatMul')).result.trimEnd().split('\n').map((l) => l.split(' ')[1]), ['y:0']);
    assert.deepEqual((await s.evaluate('lt -n Re.*')).result.trimEnd().split('\n').map((l) => l.split(' ')[1]), ['Relu:0']);
    assert.equal((await s.evaluate('lt -n nothing.*')).result.trimEnd(), 'no tensors match');
  });

  it('pt prints a tensor of the run, whole or sliced', async () => {
    assert.equal((await s.evaluate('pt y')).result.trimEnd(), 'float32[1, 2]\n[[3. 3.]]');
    assert.match((await s.evaluate('pt y[0, :1]')).result, /\[3\.\]/);
    await assert.rejects(s.evaluate('pt nosuch'), /no tensor 'nosuch' computed in this run/);
  });

  it('ni describes a node: inputs and creation site; -t adds its creation stack', async () => {
    const ni = (await s.evaluate('ni y')).result.trimEnd();
    assert.match(ni, /^Node y \(MatMul\) on \/cpu:0\n  input x:0\n  input w:0\n/);
    assert.match(ni, new RegExp(`created at ${f.path}:${f.line('matmul')}:\\d+$`));
    const trace = (await s.evaluate('ni -t y')).result.trimEnd().split('\n');
    assert.ok(trace.length > ni.split('\n').length);
    assert.match(trace[trace.length - 1], new RegExp(`<module> at ${f.path}:${f.line('matmul')}:\\d+$`));
  });

  it('expressions see graph tensors as their values and Python variables of the frame', async () => {
    assert.equal((await s.evaluate('float(tf.reduce_max(y))')).result, '3.0');
    assert.equal((await s.evaluate('float(tf.reduce_sum(y * 2.0))')).result, '12.0');
    const y = await s.evaluate('y');
    assert.match(y.result, /^float32\[1, 2\] \/cpu:0 min=3 max=3 mean=3 std=0 nan=0 inf=0$/);
    assert.ok(y.variablesReference > 0, 'a tensor result expands');
    assert.equal((await s.evaluate('i', 'watch')).result, '0');
    assert.equal((await s.evaluate('str(z.shape)', 'hover')).result, "'(1, 2)'");
    // Console tensor ops run eagerly: the program's graph does not grow.
    const ops = async () => Number((await s.evaluate('len(tf.get_default_graph().get_operations())')).result);
    const before = await ops();
    assert.ok(before > 3);
    await s.evaluate('tf.reduce_mean(tf.matmul(x_feed, w_val))'.replace('x_feed', 'tf.ones([1, 3])').replace('w_val', 'tf.ones([3, 2])'));
    assert.equal(await ops(), before);
  });

  it('errors come back as error responses and the session goes on', async () => {
    await assert.rejects(s.evaluate('undefined_name'), /NameError/);
    await assert.rejects(s.evaluate('1 +'), /syntax/);
    assert.equal((await s.evaluate('1 + 1')).result, '2');
  });

  it('completions offer the frame\'s names, attributes after a dot and the console commands', async () => {
    const frameId = (await s.stackTrace())[0].id;
    const labels = async (text) =>
      (await s.request('completions', { text, column: text.length + 1, frameId })).body.targets.map((t) => t.label);
    assert.ok((await labels('tf.reduce_m')).includes('reduce_max'));
    assert.ok((await labels('run_')).includes('run_once'));
    assert.ok((await labels('l')).includes('lt'));
  });
});
