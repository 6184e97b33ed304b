import assert from 'node:assert/strict';
import * as os from 'node:os';
import { beforeEach, describe, it } from 'node:test';
import type * as vscodeTypes from 'vscode';

import {
  parseStopped,
  StopInfo,
  StopTrackerFactory,
  figurePaths,
  TensorlensConfigurationProvider,
  TensorlensDescriptorFactory,
} from '../../src/debugAdapter';
import { currentTlensPath } from '../../src/paths';
import * as vscode from '../stub/vscode';

function session(configuration: Record<string, unknown>, name = 's'): vscodeTypes.DebugSession {
  return { configuration, name } as unknown as vscodeTypes.DebugSession;
}

describe('debug adapter descriptor factory', () => {
  beforeEach(() => {
    vscode.setConfiguration({});
    vscode.workspace.workspaceFolders = [{ uri: { fsPath: '/ws' } }];
  });

  it('starts `tlens dap` over stdio for launch, in the configuration cwd', () => {
    const f = new TensorlensDescriptorFactory(() => '/opt/tlens');
    const d = f.createDebugAdapterDescriptor(session({ request: 'launch', program: '/ws/p.py', cwd: '/ws' }));
    assert.ok(d instanceof vscode.DebugAdapterExecutable);
    assert.equal(d.command, '/opt/tlens');
    assert.deepEqual(d.args, ['dap']);
    assert.deepEqual(d.options, { cwd: '/ws' });
  });

  it('connects over TCP for attach', () => {
    const f = new TensorlensDescriptorFactory(() => 'tlens');
    const d = f.createDebugAdapterDescriptor(session({ request: 'attach', port: 4711, host: '10.0.0.5' }));
    assert.ok(d instanceof vscode.DebugAdapterServer);
    assert.equal(d.port, 4711);
    assert.equal(d.host, '10.0.0.5');
  });

  it('attaches to 127.0.0.1 when no host is given', () => {
    const d = new TensorlensDescriptorFactory(() => 'tlens').createDebugAdapterDescriptor(session({ request: 'attach', port: 9 }));
    assert.ok(d instanceof vscode.DebugAdapterServer);
    assert.equal(d.host, '127.0.0.1');
  });

  it('runs the binary named by the tensorlens.path setting, read at each launch', () => {
    const f = new TensorlensDescriptorFactory(currentTlensPath);
    const launch = session({ request: 'launch', program: '/ws/p.py' });
    let d = f.createDebugAdapterDescriptor(launch) as unknown as vscode.DebugAdapterExecutable;
    assert.equal(d.command, 'tlens');
    vscode.setConfiguration({ 'tensorlens.path': '~/tl/tlens' });
    d = f.createDebugAdapterDescriptor(launch) as unknown as vscode.DebugAdapterExecutable;
    assert.equal(d.command, `${os.homedir()}/tl/tlens`);
    vscode.setConfiguration({ 'tensorlens.path': 'build/tlens' });
    d = f.createDebugAdapterDescriptor(launch) as unknown as vscode.DebugAdapterExecutable;
    assert.equal(d.command, '/ws/build/tlens');
    assert.deepEqual(d.options, {}, 'no cwd: the adapter starts where VS Code is');
  });
});

describe('debug configuration provider', () => {
  beforeEach(() => {
    vscode.resetRecorded();
    vscode.window.activeTextEditor = undefined;
  });

  it('shows the error and aborts the launch when the program is missing', () => {
    const errors: string[] = [];
    const p = new TensorlensConfigurationProvider((m) => errors.push(m));
    const r = p.resolveDebugConfiguration(undefined, { type: 'tensorlens', request: 'launch', name: 'mine' });
    assert.equal(r, undefined);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /"mine" has no "program"/);
  });

  it('fills in the current Python file when started without launch.json', () => {
    vscode.window.activeTextEditor = { document: { uri: { fsPath: '/ws/t.py' }, languageId: 'python' } };
    const p = new TensorlensConfigurationProvider(() => assert.fail('no error expected'));
    const r = p.resolveDebugConfiguration(
      { uri: { fsPath: '/ws' } } as unknown as vscodeTypes.WorkspaceFolder,
      { type: '', request: '', name: '' },
    );
    assert.equal(r?.program, '${file}');
    assert.equal(r?.cwd, '${workspaceFolder}');
  });

  it('offers one launch configuration for a new launch.json', () => {
    const [c] = new TensorlensConfigurationProvider(() => undefined).provideDebugConfigurations();
    assert.equal(c.type, 'tensorlens');
    assert.equal(c.program, '${file}');
  });

  it('finishes a configuration after substitution', () => {
    const p = new TensorlensConfigurationProvider(() => assert.fail('no error expected'));
    const r = p.resolveDebugConfigurationWithSubstitutedVariables(undefined, {
      type: 'tensorlens',
      request: 'launch',
      name: 'n',
      program: '/a/b/c.py',
    });
    assert.equal(r?.cwd, '/a/b');
  });
});

describe('stopped events', () => {
  it('reads the graph node from a node stop', () => {
    assert.deepEqual(parseStopped({ reason: 'breakpoint', description: 'fc1/MatMul (MatMul) on /cpu:0' }), {
      reason: 'breakpoint',
      node: 'fc1/MatMul',
    });
  });

  it('marks a NaN/Inf exception stop', () => {
    const s = parseStopped({
      reason: 'exception',
      description: 'cross_entropy/Log (Log) on /cpu:0',
      text: 'Log produced -inf in 37 elements',
    });
    assert.equal(s.node, 'cross_entropy/Log');
    assert.equal(s.numerics, 'inf');
    assert.equal(parseStopped({ reason: 'exception', text: 'output holds NaN' }).numerics, 'nan');
  });

  it('reads the nan_inf stop exactly as tlens dap sends it', () => {
    // The body of the stopped event at the tfdbg example's nan_inf stop, verbatim from tlens dap
    // (dap.integration.test.ts checks it against the real adapter).
    const s = parseStopped({
      allThreadsStopped: true,
      description: 'NaN/Inf in cross_entropy/Log (Log) on /cpu:0',
      reason: 'exception',
      text: 'cross_entropy/Log produced -inf in 123 of 1000 elements because its input softmax:0 held 123 exact zeros (log(0) = -inf)',
      threadId: 1,
    } as { reason: string; description: string; text: string });
    assert.deepEqual(s, { reason: 'exception', node: 'cross_entropy/Log', numerics: 'inf' }, 'the label "NaN/Inf" says neither');
    // The engine's report wording, and NaN.
    assert.equal(parseStopped({ reason: 'exception', description: 'NaN/Inf in m (Mul) on /cpu:0', text: 'Node m (Mul) on /cpu:0 produced 4 NaN in output 0' }).numerics, 'nan');
    assert.equal(parseStopped({ reason: 'exception', description: 'NaN/Inf in d (RealDiv) on /cpu:0', text: 'd produced nan in 3 of 8 elements' }).numerics, 'nan');
    assert.equal(parseStopped({ reason: 'exception', description: 'NaN/Inf in e (Exp) on /gpu:0', text: '' }).node, 'e');
    assert.equal(parseStopped({ reason: 'exception', description: 'NaN/Inf in e (Exp) on /gpu:0', text: '' }).numerics, undefined, 'no guess without a cause');
    // A pause between the nodes of a run is a node stop too.
    assert.equal(parseStopped({ reason: 'pause', description: 'step16 (MatMul) on /cpu:0' }).node, 'step16');
  });

  it('has no node for a Python line stop', () => {
    assert.deepEqual(parseStopped({ reason: 'step' }), { reason: 'step' });
    assert.deepEqual(parseStopped({ reason: 'breakpoint', description: 'Paused on breakpoint' }), { reason: 'breakpoint' });
    assert.deepEqual(parseStopped(undefined), { reason: 'unknown' });
  });

  it('the tracker reports resumes: continued/terminated events, resuming requests, adapter exit', () => {
    let resumes = 0;
    const t = new StopTrackerFactory(() => undefined, () => resumes++).createDebugAdapterTracker(session({}));
    t.onDidSendMessage?.({ type: 'event', event: 'continued', body: { threadId: 1 } });
    t.onDidSendMessage?.({ type: 'event', event: 'terminated' });
    t.onWillReceiveMessage?.({ type: 'request', command: 'next', arguments: { threadId: 1 } });
    t.onWillReceiveMessage?.({ type: 'request', command: 'stepBack', arguments: { threadId: 1 } });
    t.onWillReceiveMessage?.({ type: 'request', command: 'variables', arguments: { variablesReference: 3 } });
    t.onExit?.(0, undefined);
    assert.equal(resumes, 5, 'variables is not a resume');
  });

  it('the tracker opens the figures a program wrote', () => {
    const opened: string[] = [];
    const t = new StopTrackerFactory(() => undefined, () => undefined, (p) => opened.push(p)).createDebugAdapterTracker(session({}));
    t.onDidSendMessage?.({ type: 'event', event: 'output', body: { category: 'stderr', output: 'tlens: wrote figure /w/plot_figure1.png\n' } });
    t.onDidSendMessage?.({ type: 'event', event: 'output', body: { output: 'print: tlens: wrote figure x.png\n' } });
    assert.deepEqual(opened, ['/w/plot_figure1.png']);
    assert.deepEqual(figurePaths('a\ntlens: wrote figure /a b/p_figure2.png\nb'), ['/a b/p_figure2.png']);
  });

  it('the tracker forwards stopped events only', () => {
    const seen: StopInfo[] = [];
    const t = new StopTrackerFactory((_s, stop) => seen.push(stop)).createDebugAdapterTracker(session({}));
    t.onDidSendMessage?.({ type: 'event', event: 'output', body: { output: 'hi' } });
    t.onDidSendMessage?.({ type: 'response', command: 'threads' });
    t.onDidSendMessage?.({ type: 'event', event: 'stopped', body: { reason: 'breakpoint', description: 'a/b (Add) on /cpu:0' } });
    assert.deepEqual(seen, [{ reason: 'breakpoint', node: 'a/b' }]);
  });
});
