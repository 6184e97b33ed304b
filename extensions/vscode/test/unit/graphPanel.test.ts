import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscodeTypes from 'vscode';

import { GraphPanel, readLiveGraph } from '../../src/graphView';
import { CliResult } from '../../src/tlensCli';
import * as vscode from '../stub/vscode';

const graphJson = { graphs: [{ nodes: [{ name: 'a', op: 'Const', device: '/cpu:0', outputs: ['float32[]'], inputs: [], controlInputs: [] }] }] };

function setup(result: CliResult | Error, abstract = true) {
  const calls: { tlens: string; args: string[]; cwd?: string }[] = [];
  const panel = new GraphPanel(
    vscode.Uri.file('/ext') as unknown as vscodeTypes.Uri,
    () => '/opt/tlens',
    () => abstract,
    async (tlens, args, cwd) => {
      calls.push({ tlens, args, cwd });
      if (result instanceof Error) throw result;
      return result;
    },
  );
  return { panel, calls };
}

const session = (answer: unknown, program = '/ws/prog.py') =>
  ({
    name: 'debug tfdbg_nan.py',
    type: 'tensorlens',
    configuration: { program },
    customRequest: async (command: string) => {
      if (answer instanceof Error) throw answer;
      assert.equal(command, 'tensorlens/graph');
      return answer;
    },
  }) as unknown as vscodeTypes.DebugSession;

describe('graph panel', () => {
  beforeEach(() => {
    vscode.resetRecorded();
    vscode.shown.panels = [];
    vscode.shown.documents = [];
  });

  it('runs tlens graph in the program folder and posts the graph once the page is ready', async () => {
    const { panel, calls } = setup({ code: 0, stdout: JSON.stringify(graphJson), stderr: '' });
    await panel.show('/ws/ex/prog.py');
    assert.deepEqual(calls, [{ tlens: '/opt/tlens', args: ['graph', '--format', 'json', '--abstract', '/ws/ex/prog.py'], cwd: '/ws/ex' }]);
    const [p] = vscode.shown.panels;
    assert.equal(p.title, 'Graph: prog.py');
    assert.deepEqual(p.options, { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [vscode.Uri.file('/ext/dist/media')] });
    assert.match(p.html, /webview\/ext\/dist\/media\/graphView\.js/);
    assert.deepEqual(p.posted, [], 'nothing is posted before the page says it is ready');
    p.receive({ type: 'ready' });
    assert.deepEqual(p.posted, [{ type: 'graph', graph: graphJson, title: 'prog.py (not run)', stoppedAt: undefined, numerics: {} }]);
    await panel.show('/ws/ex/prog.py');
    assert.equal(vscode.shown.panels.length, 1, 'the panel is reused');
    assert.equal(p.posted.length, 2);
  });

  it('shows the error when tlens prints no graph or cannot run', async () => {
    const { panel } = setup({ code: 1, stdout: '', stderr: 'SyntaxError: invalid syntax (prog.py, line 3)' });
    await panel.show('/ws/prog.py');
    assert.match(vscode.recorded.errors[0], /printed no graph \(exit 1\): SyntaxError/);
    const missing = setup(new Error('tlens was not found at "/opt/tlens": set "tensorlens.path" to the tlens binary.'));
    await missing.panel.show('/ws/prog.py');
    const p = vscode.shown.panels[1];
    p.receive({ type: 'ready' });
    assert.deepEqual(p.posted, [{ type: 'error', message: 'tlens was not found at "/opt/tlens": set "tensorlens.path" to the tlens binary.' }]);
  });

  it('opens the source line when the page asks to reveal a node', async () => {
    const { panel } = setup({ code: 0, stdout: JSON.stringify(graphJson), stderr: '' });
    await panel.show('/ws/ex/prog.py');
    vscode.shown.panels[0].receive({ type: 'reveal', file: 'prog.py', line: 45, column: 19 });
    await new Promise((r) => setImmediate(r));
    assert.equal(vscode.shown.documents.length, 1);
    const d = vscode.shown.documents[0];
    assert.equal(d.path, '/ws/ex/prog.py');
    const sel = (d.options as { selection: vscode.Range }).selection;
    assert.deepEqual(sel.start, new vscode.Position(44, 18));
  });

  it('shows the running graph of the program being debugged, when the debugger can describe it', async () => {
    const live = { graphs: [{ nodes: [] }] };
    const { panel, calls } = setup({ code: 0, stdout: JSON.stringify(graphJson), stderr: '' });
    await panel.show('/ws/prog.py', session(live));
    const p = vscode.shown.panels[0];
    p.receive({ type: 'ready' });
    assert.equal(calls.length, 0, 'tlens graph is not run');
    assert.deepEqual(p.posted, [
      { type: 'graph', graph: live, title: 'debug tfdbg_nan.py (live)', stoppedAt: undefined, stoppedGraph: undefined, numerics: {}, live: true },
    ]);
    await panel.show('/ws/other.py', session(live));
    assert.equal(calls.length, 1, 'another program: tlens graph');
    await panel.show('/ws/prog.py', session(new Error('unknown request')));
    assert.equal(calls.length, 2, 'a debugger without tensorlens/graph: tlens graph');
  });

  it('highlights the stopped node, or shows the live graph when the debugger provides it', async () => {
    const { panel } = setup({ code: 0, stdout: JSON.stringify(graphJson), stderr: '' });
    await panel.onStop(session(new Error('unknown request')), { reason: 'breakpoint', node: 'a' });
    assert.equal(vscode.shown.panels.length, 0, 'a stop never opens the panel by itself');
    await panel.show('/ws/prog.py');
    const p = vscode.shown.panels[0];
    p.receive({ type: 'ready' });
    assert.equal((p.posted[0] as { stoppedAt?: string }).stoppedAt, 'a', 'the last stop is remembered');
    await panel.onStop(session(new Error('unknown request')), { reason: 'exception', node: 'a', numerics: 'inf' });
    assert.deepEqual(p.posted[1], { type: 'stopped', node: 'a', numerics: 'inf' });
    await panel.onStop(session(graphJson), { reason: 'breakpoint', node: 'a' });
    assert.deepEqual(p.posted[2], {
      type: 'graph', graph: graphJson, title: 'debug tfdbg_nan.py (live)', stoppedAt: 'a', stoppedGraph: undefined, numerics: {}, live: true,
    });
    panel.onResume();
    assert.deepEqual(p.posted[3], { type: 'stopped' }, 'running again clears the highlight');
    panel.onResume();
    assert.equal(p.posted.length, 4, 'once');
    p.dispose();
    await panel.onStop(session(graphJson), { reason: 'breakpoint', node: 'a' });
    assert.equal(p.posted.length, 4, 'nothing goes to a closed panel');
  });

  it('posts the live graph with its run marks, NaN/Inf marks and stopped node at every stop', async () => {
    const live = (stopNode: string, ran: string[], numerics: Record<string, string> = {}) => ({
      graphs: [
        { nodes: [{ name: 'init', op: 'NoOp' }] },
        { nodes: ['x', 'y', 'Relu'].map((name) => ({ name, op: 'Op', ...(ran.includes(name) ? { ran: true } : {}), ...(numerics[name] ? { numerics: numerics[name] } : {}) })) },
      ],
      stopped: { graph: 1, node: stopNode },
    });
    const { panel } = setup({ code: 0, stdout: JSON.stringify(graphJson), stderr: '' });
    await panel.show('/ws/prog.py');
    const p = vscode.shown.panels[0];
    p.receive({ type: 'ready' });
    const first = live('y', ['x', 'y']);
    await panel.onStop(session(first), { reason: 'breakpoint', node: 'y' });
    assert.deepEqual(p.posted[1], {
      type: 'graph', graph: first, title: 'debug tfdbg_nan.py (live)', stoppedAt: 'y', stoppedGraph: 1, numerics: {}, live: true,
    });
    // The next stop (a step to the next node) refreshes it: the answer's node wins over the
    // event's description, and its marks travel in the graph itself.
    const second = live('Relu', ['x', 'y', 'Relu'], { Relu: 'nan' });
    await panel.onStop(session(second), { reason: 'exception', node: 'Relu', numerics: 'nan' });
    assert.deepEqual(p.posted[2], {
      type: 'graph', graph: second, title: 'debug tfdbg_nan.py (live)', stoppedAt: 'Relu', stoppedGraph: 1, numerics: {}, live: true,
    });
    assert.equal(p.posted.length, 3);
  });

  it('drops an answer that arrives after a later stop or a resume', async () => {
    const { panel } = setup({ code: 0, stdout: JSON.stringify(graphJson), stderr: '' });
    await panel.show('/ws/prog.py');
    const p = vscode.shown.panels[0];
    p.receive({ type: 'ready' });
    let answer: (v: unknown) => void = () => undefined;
    const slow = {
      name: 'slow',
      type: 'tensorlens',
      configuration: { program: '/ws/prog.py' },
      customRequest: () => new Promise((resolve) => (answer = resolve)),
    } as unknown as vscodeTypes.DebugSession;
    const pending = panel.onStop(slow, { reason: 'breakpoint', node: 'a' });
    panel.onResume();
    answer({ graphs: [{ nodes: [] }], stopped: { graph: 0, node: 'a' } });
    await pending;
    assert.deepEqual(p.posted.slice(1), [{ type: 'stopped' }], 'only the resume reached the page');

    const older = panel.onStop(slow, { reason: 'breakpoint', node: 'a' });
    const firstAnswer = answer;
    await panel.onStop(session(graphJson), { reason: 'step', node: 'b' });
    firstAnswer({ graphs: [{ nodes: [] }] });
    await older;
    assert.equal(p.posted.length, 3);
    assert.equal((p.posted[2] as { stoppedAt?: string }).stoppedAt, 'b', 'the later stop stays on the page');
  });
});

describe('an adapter without tensorlens/graph', () => {
  it('is asked once per session, not at every stop', async () => {
    vscode.shown.panels = [];
    const { panel } = setup({ code: 0, stdout: JSON.stringify(graphJson), stderr: '' });
    await panel.show('/ws/prog.py');
    const p = vscode.shown.panels[0];
    p.receive({ type: 'ready' });
    let asked = 0;
    const old = {
      name: 'old adapter',
      type: 'tensorlens',
      configuration: { program: '/ws/prog.py' },
      customRequest: async () => {
        asked++;
        throw new Error("unknown request 'tensorlens/graph'");
      },
    } as unknown as vscodeTypes.DebugSession;
    await panel.onStop(old, { reason: 'breakpoint', node: 'a' });
    await panel.onStop(old, { reason: 'step', node: 'b' });
    assert.equal(asked, 1);
    assert.deepEqual(p.posted.slice(1), [
      { type: 'stopped', node: 'a', numerics: undefined },
      { type: 'stopped', node: 'b', numerics: undefined },
    ]);
    // Another failure (the program ran on before the answer) does not stop the asking.
    let flaky = 0;
    const busy = { ...old, customRequest: async () => { flaky++; throw new Error('not stopped'); } } as unknown as vscodeTypes.DebugSession;
    await panel.onStop(busy, { reason: 'step' });
    await panel.onStop(busy, { reason: 'step' });
    assert.equal(flaky, 2);
  });
});

describe('reading a tensorlens/graph answer', () => {
  const g = (nodes: object[]) => ({ graphs: [{ nodes }] });

  it('needs a graphs array', () => {
    for (const bad of [undefined, null, 'text', {}, { graphs: 'x' }]) assert.equal(readLiveGraph(bad, undefined), undefined);
    assert.deepEqual(readLiveGraph(g([]), undefined), { graph: g([]), stoppedAt: undefined, stoppedGraph: undefined, numerics: {} });
  });

  it('takes the stopped node and graph from the answer, else the stopped event', () => {
    const body = { graphs: [{ nodes: [] }, { nodes: [] }], stopped: { graph: 1, node: 'fc1/MatMul' } };
    assert.equal(readLiveGraph(body, { reason: 'step', node: 'other' })?.stoppedAt, 'fc1/MatMul');
    assert.equal(readLiveGraph(body, undefined)?.stoppedGraph, 1);
    assert.equal(readLiveGraph({ graphs: [{ nodes: [] }] }, { reason: 'step', node: 'ev' })?.stoppedAt, 'ev');
    for (const graph of [2, -1, 0.5, '1']) {
      assert.equal(readLiveGraph({ graphs: [{ nodes: [] }, { nodes: [] }], stopped: { graph, node: 'n' } }, undefined)?.stoppedGraph, undefined);
    }
  });

  it('adds the stopped event\'s NaN/Inf mark only where the answer has none', () => {
    const stop = { reason: 'exception', node: 'cross_entropy/Log', numerics: 'inf' as const };
    assert.deepEqual(readLiveGraph(g([{ name: 'cross_entropy/Log' }]), stop)?.numerics, { 'cross_entropy/Log': 'inf' });
    assert.deepEqual(readLiveGraph(g([{ name: 'cross_entropy/Log', numerics: 'inf' }]), stop)?.numerics, {});
    // The answer stopped elsewhere: the event's mark is not moved onto another node.
    const elsewhere = { graphs: [{ nodes: [] }], stopped: { graph: 0, node: 'x' } };
    assert.deepEqual(readLiveGraph(elsewhere, stop)?.numerics, {});
  });
});
