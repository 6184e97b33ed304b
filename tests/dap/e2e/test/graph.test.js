// The custom request `tensorlens/graph` (what the VS Code graph view asks at every stop): the
// object `tlens graph --format json` prints, plus per node `ran: true` and `numerics`, and the
// top-level `stopped: {graph, node}`. Being built in the debugger; these tests skip themselves
// only while the adapter answers "unknown request", so they turn on by themselves after it lands.
'use strict';

const assert = require('node:assert/strict');
const { Session, Fixture } = require('../lib/session');

/// The live graph, or null when this adapter does not have the request.
async function liveGraph(s) {
  try {
    return (await s.request('tensorlens/graph', {})).body;
  } catch (e) {
    if (/unknown request/.test(String(e.message))) return null;
    throw e;
  }
}

describe('tensorlens/graph (enabled when the adapter has the request)', function () {
  let s;
  beforeEach(async () => {
    s = await Session.spawn();
  });
  afterEach(async () => {
    await s.close();
  });

  it('at a node stop: the running graph, the nodes that ran, and where it stopped', async function () {
    const f = Fixture.file('graph_loop.py');
    await s.start(f.path, { functionBreakpoints: [{ name: 'y' }] });
    assert.equal((await s.event('stopped')).body.description, 'y (MatMul) on /cpu:0');
    const g = await liveGraph(s);
    if (!g) this.skip();
    assert.ok(Array.isArray(g.graphs) && g.graphs.length >= 1);
    assert.equal(typeof g.stopped, 'object');
    const graph = g.graphs[g.stopped.graph];
    assert.equal(g.stopped.node, 'y');
    const byName = new Map(graph.nodes.map((n) => [n.name, n]));
    for (const n of ['x', 'w', 'y', 'Relu']) assert.ok(byName.has(n), `no node ${n}`);
    assert.equal(byName.get('y').op, 'MatMul');
    assert.equal(byName.get('y').ran, true);
    // Relu runs after y: not yet in this run.
    assert.notEqual(byName.get('Relu').ran, true);
    assert.ok(!graph.nodes.some((n) => n.numerics), 'nothing non-finite here');
  });

  it('at the nan_inf stop of tfdbg_nan.py: cross_entropy/Log is marked inf and is where it stopped', async function () {
    const f = Fixture.file('examples/tfdbg_nan.py');
    await s.start(f.path, { filters: ['nan_inf'] });
    await s.event('stopped', 120000);
    const g = await liveGraph(s);
    if (!g) this.skip();
    assert.equal(g.stopped.node, 'cross_entropy/Log');
    const graph = g.graphs[g.stopped.graph];
    const log = graph.nodes.find((n) => n.name === 'cross_entropy/Log');
    assert.equal(log.numerics, 'inf');
    assert.equal(log.ran, true);
    assert.equal(graph.nodes.find((n) => n.name === 'softmax').ran, true);
    // Nothing downstream of Log ran in this run.
    const mean = graph.nodes.find((n) => n.name === 'cross_entropy/total/Mean');
    if (mean) assert.notEqual(mean.ran, true);
  });
});
