// The `tlens` binary the extension runs, from the `tensorlens.path` setting (read on every use,
// so a changed setting applies to the next debug session or command without a reload).
import * as os from 'os';
import * as vscode from 'vscode';

import { readSettings, resolveTlensPath, Settings } from './config';

export function currentSettings(): Settings {
  return readSettings(vscode.workspace.getConfiguration('tensorlens'));
}

export function firstWorkspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

export function currentTlensPath(): string {
  return resolveTlensPath(currentSettings().tlensPath, firstWorkspaceFolder(), os.homedir());
}
