import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscodeTypes from 'vscode';

import { GraphPanel } from '../../src/graphView';
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
    assert.deepEqual(p.posted, [{ type: 'graph', graph: live, title: 'debug tfdbg_nan.py (live)', stoppedAt: undefined, numerics: {} }]);
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
    assert.deepEqual(p.posted[2], { type: 'graph', graph: graphJson, title: 'debug tfdbg_nan.py (live)', stoppedAt: 'a', numerics: {} });
    panel.onResume();
    assert.deepEqual(p.posted[3], { type: 'stopped' }, 'running again clears the highlight');
    panel.onResume();
    assert.equal(p.posted.length, 4, 'once');
    p.dispose();
    await panel.onStop(session(graphJson), { reason: 'breakpoint', node: 'a' });
    assert.equal(p.posted.length, 4, 'nothing goes to a closed panel');
  });
});
