// The status-bar item that shows the language server's state. Clicking it opens the output
// channel (where the server's stderr and traces go).
import * as vscode from 'vscode';

export type ServerState = 'starting' | 'running' | 'restarting' | 'stopped' | 'failed' | 'disabled';

const kText: Record<ServerState, string> = {
  starting: '$(sync~spin) tlens',
  running: '$(pulse) tlens',
  restarting: '$(sync~spin) tlens (restarting)',
  stopped: '$(debug-stop) tlens',
  failed: '$(error) tlens',
  disabled: '$(circle-slash) tlens',
};

const kTooltip: Record<ServerState, string> = {
  starting: 'tensorlens language server: starting',
  running: 'tensorlens language server: running',
  restarting: 'tensorlens language server: crashed, restarting',
  stopped: 'tensorlens language server: stopped',
  failed: 'tensorlens language server: not running (see the tensorlens output)',
  disabled: 'tensorlens language server: disabled by tensorlens.languageServer.enabled',
};

export class ServerStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private current: ServerState = 'stopped';

  constructor(showOutputCommand: string) {
    this.item = vscode.window.createStatusBarItem('tensorlens.server', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'tensorlens';
    this.item.command = showOutputCommand;
    this.set('stopped');
    this.item.show();
  }

  set(state: ServerState, detail?: string): void {
    this.current = state;
    this.item.text = kText[state];
    this.item.tooltip = detail ? `${kTooltip[state]}\n${detail}` : kTooltip[state];
    this.item.backgroundColor =
      state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  get state(): ServerState {
    return this.current;
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
