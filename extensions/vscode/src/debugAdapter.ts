// The debugger contribution: resolving launch.json entries (config.ts does the work), starting
// `tlens dap` over stdio for launch, connecting over TCP for attach, and watching `stopped`
// events so the graph view can highlight the node the debugger stopped at.
import * as vscode from 'vscode';

import { ActiveFile, finishDebugConfig, kDebugType, resolveDebugConfig } from './config';

export class TensorlensConfigurationProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly showError: (message: string) => void) {}

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [
      {
        type: kDebugType,
        request: 'launch',
        name: 'tensorlens: current file',
        program: '${file}',
        cwd: '${workspaceFolder}',
        mode: 'auto',
        checkNumerics: true,
        stopOnEntry: false,
      },
    ];
  }

  resolveDebugConfiguration(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.DebugConfiguration | undefined {
    const editor = vscode.window.activeTextEditor;
    const active: ActiveFile | undefined = editor
      ? { path: editor.document.uri.fsPath, languageId: editor.document.languageId }
      : undefined;
    const r = resolveDebugConfig(config, active, folder !== undefined);
    if ('error' in r) {
      this.showError(r.error);
      return undefined; // undefined aborts the launch; null would open launch.json instead
    }
    return r.config;
  }

  resolveDebugConfigurationWithSubstitutedVariables(
    _folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.DebugConfiguration | undefined {
    const r = finishDebugConfig(config);
    if ('error' in r) {
      this.showError(r.error);
      return undefined;
    }
    return r.config;
  }
}

/// launch: `tlens dap` as a child process speaking DAP on stdio. attach: a TCP connection to
/// `tlens dap --port N` or `tlens run --listen N`, which may be an SSH tunnel to another machine.
export class TensorlensDescriptorFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private readonly tlensPath: () => string) {}

  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.DebugAdapterDescriptor {
    const c = session.configuration;
    if (c.request === 'attach') {
      return new vscode.DebugAdapterServer(Number(c.port), typeof c.host === 'string' ? c.host : '127.0.0.1');
    }
    const cwd = typeof c.cwd === 'string' && c.cwd !== '' ? c.cwd : undefined;
    return new vscode.DebugAdapterExecutable(this.tlensPath(), ['dap'], cwd ? { cwd } : {});
  }
}

/// What the graph view needs to know about a stop.
export interface StopInfo {
  /// The graph node the program stopped at, when it stopped inside a graph run.
  node?: string;
  /// Set for stops on the nan_inf exception filter.
  numerics?: 'nan' | 'inf';
  reason: string;
}

/// Reads a DAP `stopped` event body. `tlens dap` describes a stop at a graph node as
/// "fc1/MatMul (MatMul) on /cpu:0", and a nan_inf stop as "NaN/Inf in cross_entropy/Log (Log) on
/// /cpu:0" with the cause in `text` ("cross_entropy/Log produced -inf in 123 of 1000 elements
/// because ..."); a Python-line stop has no such text. The node is the `name (Op)` that ends
/// the description; the kind of non-finite value is what the node *produced*, else the first of
/// NaN or Inf the text mentions (the "NaN/Inf" label itself says neither).
export function parseStopped(body: { reason?: string; description?: string; text?: string } | undefined): StopInfo {
  const reason = body?.reason ?? 'unknown';
  const info: StopInfo = { reason };
  const m = /(?:^|\s)([^\s()]+) \(([A-Za-z0-9_]+)\)(?: on (\S+))?\s*$/.exec(body?.description ?? '');
  if (m) info.node = m[1];
  if (reason === 'exception') {
    const t = `${body?.text ?? ''} ${body?.description ?? ''}`.replace(/NaN\/Inf/gi, ' ').toLowerCase();
    const produced = /\bproduced\s+(?:\d+\s+)?(-?inf|nan)\b/.exec(t);
    if (produced) info.numerics = produced[1] === 'nan' ? 'nan' : 'inf';
    else if (/\bnan\b/.test(t)) info.numerics = 'nan';
    else if (/(^|[^a-z])-?inf\b|infinity/.test(t)) info.numerics = 'inf';
  }
  return info;
}

/// The PNG files named by `tlens: wrote figure PATH` lines of a program's output.
export function figurePaths(output: string | undefined): string[] {
  const paths: string[] = [];
  for (const m of (output ?? '').matchAll(/^tlens: wrote figure (.+\.png)\r?$/gm)) paths.push(m[1]);
  return paths;
}

/// Requests after which the program runs again, so a highlighted stop is stale.
const kResumeRequests = new Set(['continue', 'next', 'stepIn', 'stepOut', 'stepBack', 'reverseContinue', 'restart']);

/// Forwards the `stopped` events of a tensorlens session to a listener (the graph view), and
/// tells it when the program runs again or the session ends. Adapters need not send `continued`
/// for resumes the client asked for, so the client's own requests count too.
export class StopTrackerFactory implements vscode.DebugAdapterTrackerFactory {
  constructor(
    private readonly onStop: (session: vscode.DebugSession, stop: StopInfo) => void,
    private readonly onResume: (session: vscode.DebugSession) => void = () => undefined,
    /// A matplotlib figure the program wrote (`tlens: wrote figure PATH` on its stderr).
    private readonly onFigure: (path: string) => void = () => undefined,
  ) {}

  createDebugAdapterTracker(session: vscode.DebugSession): vscode.DebugAdapterTracker {
    return {
      onDidSendMessage: (m: { type?: string; event?: string; body?: Record<string, string> }) => {
        if (m.type !== 'event') return;
        if (m.event === 'stopped') this.onStop(session, parseStopped(m.body));
        else if (m.event === 'output') for (const p of figurePaths(m.body?.output)) this.onFigure(p);
        else if (m.event === 'continued' || m.event === 'terminated' || m.event === 'exited') this.onResume(session);
      },
      onWillReceiveMessage: (m: { type?: string; command?: string }) => {
        if (m.type === 'request' && m.command && kResumeRequests.has(m.command)) this.onResume(session);
      },
      onExit: () => this.onResume(session),
    };
  }
}
