// Loads the whole extension against the stubs (vscode and the language client) and activates it:
// everything package.json promises must get registered, and the language server's life (start,
// crash, restart, give up, missing binary) must show in the status bar and in messages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type * as vscodeTypes from 'vscode';

import * as extension from '../../src/extension';
import { kCrashMessage } from '../../src/restart';
import { CloseAction, LanguageClient, TransportKind } from '../stub/languageclient/node';
import * as vscode from '../stub/vscode';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));

type Context = { subscriptions: { dispose(): void }[]; extensionUri: vscode.Uri };

async function activate(settings: Record<string, unknown>): Promise<Context> {
  vscode.resetRecorded();
  vscode.setConfiguration(settings);
  LanguageClient.instances = [];
  const context: Context = { subscriptions: [], extensionUri: vscode.Uri.file('/ext') };
  await extension.activate(context as unknown as vscodeTypes.ExtensionContext);
  return context;
}

async function deactivate(context: Context): Promise<void> {
  for (const d of context.subscriptions) d.dispose();
  await extension.deactivate();
}

describe('activation', () => {
  let context: Context | undefined;
  beforeEach(() => {
    LanguageClient.failStart = undefined;
    vscode.workspace.workspaceFolders = [{ uri: { fsPath: '/ws' } }];
  });
  afterEach(async () => {
    if (context) await deactivate(context);
    context = undefined;
  });

  it('registers every contributed command, the debugger parts and the status-bar item', async () => {
    context = await activate({ 'tensorlens.languageServer.enabled': false });
    const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
    for (const c of contributed) assert.ok(vscode.registered.commands.has(c), `${c} is registered`);
    assert.ok(vscode.registered.commands.has('tensorlens.showOutput'), 'the status-bar item command exists');
    for (const m of [
      vscode.registered.configurationProviders,
      vscode.registered.descriptorFactories,
      vscode.registered.trackerFactories,
    ]) {
      assert.deepEqual([...m.keys()], [manifest.contributes.debuggers[0].type]);
    }
    assert.deepEqual(vscode.registered.diagnosticCollections, ['tlens check']);
    assert.deepEqual(vscode.registered.outputChannels.slice(-1), ['tensorlens']);
    assert.match(vscode.recorded.statusBarItems[0].text, /circle-slash/, 'the status bar says the server is disabled');
    assert.equal(LanguageClient.instances.length, 0, 'no server when disabled');
    await deactivate(context);
    context = undefined;
    assert.equal(vscode.registered.commands.size, 0, 'every command is disposed with the context');
  });

  it('starts `tlens lsp` over stdio for Python files with the settings as initialization options', async () => {
    context = await activate({ 'tensorlens.path': '${workspaceFolder}/build/tlens', 'tensorlens.analysis.budgetMs': 900 });
    const [client] = LanguageClient.instances;
    assert.deepEqual(client.serverOptions.run, {
      command: '/ws/build/tlens',
      args: ['lsp'],
      transport: TransportKind.stdio,
      options: { cwd: '/ws' },
    });
    assert.deepEqual(client.clientOptions.documentSelector, [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ]);
    assert.deepEqual(client.clientOptions.initializationOptions, { analysisBudgetMs: 900, inlayHints: true, virtualGpus: 0 });
    assert.deepEqual(client.clientOptions.synchronize, { configurationSection: 'tensorlens' });
    assert.match(vscode.recorded.statusBarItems[0].text, /pulse/, 'running');
  });

  it('restarts a crashed server, says so once, and gives up after 5 crashes', async () => {
    context = await activate({});
    const [client] = LanguageClient.instances;
    const item = vscode.recorded.statusBarItems[0];
    assert.equal(client.crash().action, CloseAction.Restart);
    assert.deepEqual(vscode.recorded.warnings, [kCrashMessage]);
    for (let i = 0; i < 3; ++i) assert.equal(client.crash().action, CloseAction.Restart);
    assert.equal(vscode.recorded.warnings.length, 1, 'said once');
    assert.equal(client.crash().action, CloseAction.DoNotRestart);
    assert.equal(vscode.recorded.errors.length, 1);
    assert.match(vscode.recorded.errors[0], /crashed 5 times/);
    assert.match(item.text, /error/, 'the status bar shows the failure');

    await vscode.registered.commands.get('tensorlens.restartServer')?.();
    assert.equal(LanguageClient.instances.length, 2, 'a manual restart makes a fresh client');
    assert.match(item.text, /pulse/);
    assert.equal(LanguageClient.instances[1].crash().action, CloseAction.Restart, 'with a fresh allowance');
  });

  it('restarts the server for a new binary, on/off or inlay hints on/off, not for the budget or GPUs', async () => {
    context = await activate({});
    assert.equal(LanguageClient.instances.length, 1);
    vscode.changeConfiguration({ 'tensorlens.analysis.budgetMs': 2000 });
    await new Promise((r) => setImmediate(r));
    assert.equal(LanguageClient.instances.length, 1, 'the budget goes by didChangeConfiguration');
    vscode.changeConfiguration({ 'tensorlens.virtualGpus': 2 });
    await new Promise((r) => setImmediate(r));
    assert.equal(LanguageClient.instances.length, 1, 'virtualGpus goes by didChangeConfiguration too');
    vscode.changeConfiguration({ 'tensorlens.inlayHints.enabled': false });
    await new Promise((r) => setImmediate(r));
    assert.equal(LanguageClient.instances.length, 2, 'inlay hints off: a new client drops the shown hints');
    const client = LanguageClient.instances[1];
    assert.deepEqual(client.clientOptions.initializationOptions, { analysisBudgetMs: 2000, inlayHints: false, virtualGpus: 2 });
    // The middleware drops hints even from a server that ignores the option.
    const provide = client.clientOptions.middleware.provideInlayHints;
    assert.deepEqual(await provide({}, {}, {}, () => ['hint']), []);
    vscode.changeConfiguration({ 'tensorlens.inlayHints.enabled': true });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(await LanguageClient.instances[2].clientOptions.middleware.provideInlayHints({}, {}, {}, () => ['hint']), ['hint']);
    vscode.changeConfiguration({ 'tensorlens.path': '/opt/other/tlens' });
    await new Promise((r) => setImmediate(r));
    assert.equal(LanguageClient.instances.length, 4);
    assert.equal(LanguageClient.instances[3].serverOptions.run.command, '/opt/other/tlens');
  });

  it('names the setting to fix when tlens cannot be started', async () => {
    LanguageClient.failStart = new Error('spawn /nope/tlens ENOENT');
    context = await activate({ 'tensorlens.path': '/nope/tlens' });
    assert.equal(vscode.recorded.errors.length, 1);
    assert.match(vscode.recorded.errors[0], /"\/nope\/tlens lsp".*"tensorlens\.path"/);
    assert.match(vscode.recorded.statusBarItems[0].text, /error/);
  });

  it('puts the commands where the user looks for them: title bar, run menu, palette', () => {
    const menus = manifest.contributes.menus;
    assert.deepEqual(menus['editor/title'].map((m: { command: string }) => m.command), ['tensorlens.showGraph']);
    assert.deepEqual(menus['editor/title/run'], [
      { command: 'tensorlens.runWithNumericsChecks', when: 'resourceLangId == python', group: 'navigation@1' },
    ]);
    const titles = Object.fromEntries(manifest.contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title]));
    assert.deepEqual(titles, {
      'tensorlens.showGraph': 'Show graph',
      'tensorlens.runWithNumericsChecks': 'Run with NaN/Inf checks',
      'tensorlens.checkWorkspace': 'Check workspace',
      'tensorlens.restartServer': 'Restart language server',
    });
    const settings = Object.keys(manifest.contributes.configuration.properties);
    assert.deepEqual(settings, [
      'tensorlens.path',
      'tensorlens.languageServer.enabled',
      'tensorlens.analysis.budgetMs',
      'tensorlens.inlayHints.enabled',
      'tensorlens.virtualGpus',
      'tensorlens.graph.abstract',
      'tensorlens.trace.server',
    ]);
  });

  it('declares the activation events for Python files and the debugger', () => {
    assert.ok(manifest.activationEvents.includes('onLanguage:python'));
    assert.ok(manifest.activationEvents.includes('onDebugResolve:tensorlens'));
    assert.equal(
      manifest.devDependencies['@types/vscode'],
      manifest.engines.vscode.replace('^', ''),
      '@types/vscode is pinned to engines.vscode (vsce refuses otherwise)',
    );
  });
});
