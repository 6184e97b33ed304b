// Entry point: wires the language client, the debugger contribution, the graph view and the
// commands together. Each part lives in its own file; this one only connects them.
import * as path from 'path';
import * as vscode from 'vscode';

import { kDebugType } from './config';
import { parseCheckOutput, toDiagnostics } from './checkWorkspace';
import { StopTrackerFactory, TensorlensConfigurationProvider, TensorlensDescriptorFactory } from './debugAdapter';
import { GraphPanel } from './graphView';
import { LspClient } from './lspClient';
import { currentSettings as settings, currentTlensPath as tlensPath, firstWorkspaceFolder as firstFolder } from './paths';
import { ServerStatus } from './status';
import { runTlens } from './tlensCli';

let lsp: LspClient | undefined;

/// The Python file in the active editor, saved first so tlens reads what the user sees.
async function activePythonFile(): Promise<string | undefined> {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || doc.languageId !== 'python' || doc.uri.scheme !== 'file') {
    void vscode.window.showErrorMessage('tensorlens: open a Python file first.');
    return undefined;
  }
  if (doc.isDirty) await doc.save();
  return doc.uri.fsPath;
}

async function checkWorkspace(collection: vscode.DiagnosticCollection, output: vscode.OutputChannel): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  if (folders.length === 0) {
    void vscode.window.showErrorMessage('tensorlens: "Check workspace" needs an open folder.');
    return;
  }
  const cwd = folders[0];
  try {
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'tlens check' },
      () => runTlens(tlensPath(), ['check', '--format', 'json', ...folders], cwd, 10 * 60 * 1000),
    );
    if (r.stderr.trim()) output.appendLine(r.stderr.trimEnd());
    const items = parseCheckOutput(r.stdout).map((d) => ({ ...d, file: path.resolve(cwd, d.file) }));
    collection.clear();
    for (const [file, diags] of toDiagnostics(items)) collection.set(vscode.Uri.file(file), diags);
    const errors = items.filter((d) => d.severity === 'error').length;
    const warnings = items.filter((d) => d.severity === 'warning').length;
    void vscode.window.showInformationMessage(
      `tlens check: ${errors} error(s), ${warnings} warning(s) in ${new Set(items.map((d) => d.file)).size} file(s).`,
    );
  } catch (e) {
    void vscode.window.showErrorMessage(`tensorlens: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('tensorlens');
  const status = new ServerStatus('tensorlens.showOutput');
  const graph = new GraphPanel(context.extensionUri, tlensPath, () =>
    vscode.workspace.getConfiguration('tensorlens').get<boolean>('graph.abstract', true),
  );
  const checkDiagnostics = vscode.languages.createDiagnosticCollection('tlens check');
  lsp = new LspClient(output, status, settings, tlensPath, firstFolder);
  context.subscriptions.push(output, status, graph, checkDiagnostics, lsp);

  const showError = (m: string) => void vscode.window.showErrorMessage(m);
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider(kDebugType, new TensorlensConfigurationProvider(showError)),
    vscode.debug.registerDebugAdapterDescriptorFactory(kDebugType, new TensorlensDescriptorFactory(tlensPath)),
    vscode.debug.registerDebugAdapterTrackerFactory(
      kDebugType,
      new StopTrackerFactory(
        (session, stop) => void graph.onStop(session, stop),
        () => graph.onResume(),
        (png) => void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(png), { preview: false }),
      ),
    ),
  );

  context.subscriptions.push(
    vscode.commands.registerCommand('tensorlens.showGraph', async () => {
      const file = await activePythonFile();
      if (file) await graph.show(file, vscode.debug.activeDebugSession);
    }),
    vscode.commands.registerCommand('tensorlens.runWithNumericsChecks', async () => {
      const file = await activePythonFile();
      if (!file) return;
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
      await vscode.debug.startDebugging(folder, {
        type: kDebugType,
        request: 'launch',
        name: `tensorlens: ${path.basename(file)} (NaN/Inf checks)`,
        program: file,
        cwd: folder?.uri.fsPath ?? path.dirname(file),
        checkNumerics: true,
      });
    }),
    vscode.commands.registerCommand('tensorlens.checkWorkspace', () => checkWorkspace(checkDiagnostics, output)),
    vscode.commands.registerCommand('tensorlens.restartServer', () => lsp?.restart()),
    vscode.commands.registerCommand('tensorlens.showOutput', () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // A new binary or on/off: a new server. Inlay hints on/off: a new client too, because
      // VS Code keeps showing the hints it has until the provider is replaced (the middleware
      // alone would only hide them after the next edit). The analysis budget and virtualGpus travel
      // with workspace/didChangeConfiguration (synchronize.configurationSection) and need none:
      // the server re-analyses the open files with them.
      if (
        e.affectsConfiguration('tensorlens.path') ||
        e.affectsConfiguration('tensorlens.languageServer.enabled') ||
        e.affectsConfiguration('tensorlens.inlayHints.enabled')
      ) {
        void lsp?.restart();
      }
    }),
  );

  await lsp.start();
}

export async function deactivate(): Promise<void> {
  await lsp?.stop();
  lsp = undefined;
}
