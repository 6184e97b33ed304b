// Line breakpoints on graph code, conditions on tensor statistics and logpoints, through
// DebugClient and the real `tlens dap` process.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture, named } = require('../lib/session');

describe('graph-node breakpoints', function () {
  const f = Fixture.file('graph_loop.py');
  let s;
  beforeEach(async () => {
    s = await Session.spawn();
  });
  afterEach(async () => {
    await s.close();
  });

  it('stops at graph construction, then at the node on every sess.run', async () => {
    // DebugClient's own scenario: initialize, launch, set the breakpoint on `initialized`,
    // configurationDone, and the first stop at that line with reason "breakpoint".
    await s.dc.hitBreakpoint({ program: f.path }, { path: f.path, line: f.line('matmul') });
    await s.event('stopped'); // the same stop, from the session's own log
    let frames = await s.stackTrace();
    assert.equal(frames[0].name, '<module>');

    for (let run = 0; run < 3; ++run) {
      await s.request('continue', { threadId: 1 });
      const stop = await s.event('stopped');
      assert.equal(stop.body.reason, 'breakpoint');
      assert.equal(stop.body.description, 'y (MatMul) on /cpu:0');
      frames = await s.stackTrace();
      assert.equal(frames[0].name, 'y (MatMul)');
      assert.equal(frames[0].line, f.line('matmul'));
      assert.equal(frames[0].source.path, f.path);
      // Below the node: the Python stack of the sess.run call site.
      const runFrame = frames.findIndex((fr) => fr.name === 'run_once' && fr.line === f.line('run'));
      assert.ok(runFrame > 0, `no run_once frame in ${JSON.stringify(frames.map((fr) => fr.name))}`);
      assert.ok(frames.slice(runFrame).some((fr) => fr.name === '<module>'));

      const out = named(await s.scope(0, 'Node'), 'out y:0');
      assert.match(out.value, new RegExp(`^float32\\[1, 2\\] /cpu:0 min=${3 + run} max=${3 + run} `));
      assert.match(out.value, /nan=0 inf=0/);
    }
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    await s.event('terminated');
    assert.match(s.output('stdout'), /done \(1, 2\)/);
  });

  it('a condition on a tensor statistic stops only in the run where it holds', async () => {
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('matmul'), condition: 'tf.reduce_max(y) > 4' }] });
    // At graph construction y has no value (the condition is false); in run i, max(y) = 3 + i.
    const stop = await s.event('stopped');
    assert.equal(stop.body.description, 'y (MatMul) on /cpu:0');
    assert.match(named(await s.scope(0, 'Node'), 'out y:0').value, /min=5 max=5/);
    assert.equal((await s.evaluate('i', 'watch')).result, '2');
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
  });

  it('a hit condition counts stops of the node (a plain number means from that hit on)', async () => {
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('relu'), hitCondition: '3' }] });
    // Hit 1 is graph construction, hits 2..4 the three runs (Relu = 3, 4, 5).
    let stop = await s.event('stopped');
    assert.equal(stop.body.description, 'Relu (Relu) on /cpu:0');
    assert.match(named(await s.scope(0, 'Node'), 'out Relu:0').value, /min=4 max=4/);
    await s.request('continue', { threadId: 1 });
    stop = await s.event('stopped');
    assert.match(named(await s.scope(0, 'Node'), 'out Relu:0').value, /min=5 max=5/);
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
  });

  it('a hit condition "%2" stops at every second hit', async () => {
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('relu'), hitCondition: '%2' }] });
    const seen = [];
    for (;;) {
      const next = await s.firstOf(['stopped', 'exited']);
      if (next.name === 'exited') break;
      seen.push(/min=(\d+)/.exec(named(await s.scope(0, 'Node'), 'out Relu:0').value)[1]);
      await s.request('continue', { threadId: 1 });
    }
    assert.deepEqual(seen, ['3', '5']); // hits 2 and 4
  });

  it('a logpoint with {expr} prints a tensor statistic at every run and never stops', async () => {
    await s.start(f.path, { lineBreakpoints: [{ line: f.line('matmul'), logMessage: 'max(y) = {float(tf.reduce_max(y))}, i = {i}' }] });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    const console = s.output('console');
    assert.match(console, /max\(y\) = 3\.0, i = 0\n/);
    assert.match(console, /max\(y\) = 4\.0, i = 1\n/);
    assert.match(console, /max\(y\) = 5\.0, i = 2\n/);
    // The logpoint's messages are output events of their own, one line each, in run order.
    const lines = s.outputs.filter((o) => o.output.startsWith('max(y) = ')).map((o) => o.output);
    const values = lines.filter((l) => !l.includes('<error:'));
    assert.deepEqual(values, ['max(y) = 3.0, i = 0\n', 'max(y) = 4.0, i = 1\n', 'max(y) = 5.0, i = 2\n']);
    // Today the logpoint also fires before the statement builds the node, when `y` is not bound
    // yet, and prints the NameError there (reported to the debugger's owner); at most that one.
    assert.ok(lines.length <= 4 && lines.indexOf(values[0]) === lines.length - 3, JSON.stringify(lines));
    await s.event('terminated');
    assert.equal(s.queues.get('stopped').length, 0, 'a logpoint must not stop');
  });

  it('in a tf.function body: stops while tracing, then at the traced node on every call', async () => {
    const g = Fixture.file('tf_function.py');
    const line = g.find('return x * 2');
    await s.start(g.path, { lineBreakpoints: [{ line }] });
    let stop = await s.event('stopped');
    let frames = await s.stackTrace();
    assert.equal(frames[0].name, 'double', 'the trace runs the body as Python');
    assert.equal(frames[0].line, line);
    // Every call replays the trace: the nodes of this line (the constant 2, then the Mul) stop.
    for (let call = 1; call <= 2; ++call) {
      const seen = [];
      for (;;) {
        await s.request('continue', { threadId: 1 });
        stop = await s.event('stopped');
        seen.push(stop.body.description);
        frames = await s.stackTrace();
        assert.equal(frames[0].line, line);
        assert.ok(frames.some((fr) => fr.name === '<module>' && fr.line === g.find('print("result"')), 'the call site is on the stack');
        if (/\(Mul\)/.test(stop.body.description)) break;
      }
      assert.deepEqual(seen, ['Const (Const) on /cpu:0', 'Mul (Mul) on /cpu:0']);
      const out = (await s.scope(0, 'Node')).find((v) => v.name.startsWith('out '));
      assert.match(out.value, new RegExp(`min=${2 * call} max=${2 * call} `));
    }
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
    assert.match(s.output('stdout'), /result 2\.0\nresult 4\.0\n/);
  });

  it('function breakpoints name an op type, a node or a regex; a bad regex is unverified', async () => {
    await s.request('initialize', { adapterID: 'tensorlens' });
    await s.request('launch', { program: f.path });
    await s.event('initialized');
    const r = await s.request('setFunctionBreakpoints', { breakpoints: [{ name: 'Relu' }, { name: '[(' }] });
    assert.equal(r.body.breakpoints[0].verified, true);
    assert.equal(r.body.breakpoints[1].verified, false);
    await s.request('configurationDone');
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'function breakpoint');
    assert.equal(stop.body.description, 'Relu (Relu) on /cpu:0');
    await s.request('setFunctionBreakpoints', { breakpoints: [] });
    await s.request('continue', { threadId: 1 });
    assert.equal((await s.event('exited')).body.exitCode, 0);
  });

  it('a breakpoint on a line without code moves to the next statement', async () => {
    await s.request('initialize', { adapterID: 'tensorlens' });
    await s.request('launch', { program: f.path });
    await s.event('initialized');
    const blank = f.line('run') + 1; // the empty line after `return sess.run(...)`
    const r = await s.request('setBreakpoints', { source: { path: f.path }, breakpoints: [{ line: blank }, { line: 999 }] });
    assert.equal(r.body.breakpoints[0].verified, true);
    assert.equal(r.body.breakpoints[0].line, f.find('sess = tf.Session()'));
    assert.equal(r.body.breakpoints[1].verified, false);
    await s.request('configurationDone');
    const stop = await s.event('stopped');
    assert.equal(stop.body.reason, 'breakpoint');
    assert.equal((await s.stackTrace())[0].line, f.find('sess = tf.Session()'));
  });
});
