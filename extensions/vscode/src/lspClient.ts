// Starts `tlens lsp` for Python files through vscode-languageclient, keeps the status-bar item in
// step with it, and restarts it when it crashes (see restart.ts for when and how the user hears).
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';

import { initializationOptions, Settings } from './config';
import { RestartSupervisor } from './restart';
import { ServerStatus } from './status';


export function serverOptions(tlensPath: string, cwd: string | undefined): ServerOptions {
  const exe = { command: tlensPath, args: ['lsp'], transport: TransportKind.stdio, options: { cwd } };
  return { run: exe, debug: exe };
}

export class LspClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly supervisor: RestartSupervisor;

  constructor(
    private readonly output: vscode.OutputChannel,
    private readonly status: ServerStatus,
    private readonly settings: () => Settings,
    private readonly tlensPath: () => string,
    private readonly cwd: () => string | undefined,
  ) {
    this.supervisor = new RestartSupervisor({
      warn: (m) => void vscode.window.showWarningMessage(m),
      error: (m) => void vscode.window.showErrorMessage(m),
    });
  }

  async start(): Promise<void> {
    if (!this.settings().languageServerEnabled) {
      this.status.set('disabled');
      return;
    }
    const path = this.tlensPath();
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'python' },
        { scheme: 'untitled', language: 'python' },
      ],
      outputChannel: this.output,
      initializationOptions: initializationOptions(this.settings()),
      synchronize: { configurationSection: 'tensorlens' },
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue }),
        closed: () => {
          if (this.supervisor.onCrash() === 'restart') {
            this.status.set('restarting', `${this.supervisor.crashCount} crash(es) recently`);
            return { action: CloseAction.Restart, handled: true };
          }
          this.status.set('failed', 'crashed too often; not restarted');
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      middleware: {
        // The setting wins even with a server that does not read the option (an older tlens).
        provideInlayHints: (doc, range, token, next) => (this.settings().inlayHints ? next(doc, range, token) : []),
      },
    };
    const client = new LanguageClient('tensorlens', 'tensorlens', serverOptions(path, this.cwd()), clientOptions);
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) this.status.set('running', `${path} lsp`);
      else if (e.newState === State.Starting) this.status.set('starting');
      else if (this.status.state !== 'failed') this.status.set('stopped');
    });
    this.client = client;
    this.status.set('starting');
    try {
      await client.start();
    } catch (e) {
      this.status.set('failed', String(e));
      this.output.appendLine(`tensorlens: could not start "${path} lsp": ${String(e)}`);
      void vscode.window.showErrorMessage(
        `tensorlens: could not start the language server "${path} lsp". ` +
          'Set "tensorlens.path" to the tlens binary.',
      );
    }
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c && c.state !== State.Stopped) {
      try {
        await c.stop();
      } catch (e) {
        this.output.appendLine(`tensorlens: stopping the language server: ${String(e)}`);
      }
    }
    if (this.status.state !== 'failed') this.status.set(this.settings().languageServerEnabled ? 'stopped' : 'disabled');
  }

  /// Manual restart (command or a changed tlens path): a fresh crash allowance.
  async restart(): Promise<void> {
    await this.stop();
    this.supervisor.reset();
    this.status.set('stopped');
    await this.start();
  }

  dispose(): void {
    void this.stop();
  }
}
