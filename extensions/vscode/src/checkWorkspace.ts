// "Check workspace": `tlens check --format json` over the workspace folders, shown in the
// Problems panel under the source "tlens check" (separate from the language server's live ones).
import * as vscode from 'vscode';

/// One element of `tlens check --format json`'s array (tools/tlens/CheckCommand.cpp); lines and
/// columns are 1-based.
export interface CheckDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  code?: string;
  related?: { file: string; line: number; column: number; message: string }[];
}

export function parseCheckOutput(stdout: string): CheckDiagnostic[] {
  const v: unknown = JSON.parse(stdout);
  if (!Array.isArray(v)) throw new Error('tlens check --format json did not print an array');
  return (v as unknown[]).filter((d): d is CheckDiagnostic => {
    const o = d as Partial<CheckDiagnostic> | null;
    return typeof o === 'object' && o !== null && typeof o.file === 'string' && typeof o.line === 'number';
  });
}

function severity(s: string): vscode.DiagnosticSeverity {
  switch (s) {
    case 'error':
      return vscode.DiagnosticSeverity.Error;
    case 'warning':
      return vscode.DiagnosticSeverity.Warning;
    case 'info':
      return vscode.DiagnosticSeverity.Information;
    default:
      return vscode.DiagnosticSeverity.Hint;
  }
}

/// Groups diagnostics by file, converting to VS Code's 0-based positions. A missing end becomes
/// the end of the start line's first token (VS Code widens an empty range to the word).
export function toDiagnostics(items: CheckDiagnostic[]): Map<string, vscode.Diagnostic[]> {
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const d of items) {
    const start = new vscode.Position(Math.max(0, d.line - 1), Math.max(0, d.column - 1));
    const end =
      d.endLine && d.endColumn
        ? new vscode.Position(Math.max(0, d.endLine - 1), Math.max(0, d.endColumn - 1))
        : start;
    const diag = new vscode.Diagnostic(new vscode.Range(start, end), d.message, severity(d.severity));
    diag.source = 'tlens check';
    if (d.code) diag.code = d.code;
    if (d.related?.length) {
      diag.relatedInformation = d.related.map(
        (r) =>
          new vscode.DiagnosticRelatedInformation(
            new vscode.Location(
              vscode.Uri.file(r.file),
              new vscode.Position(Math.max(0, r.line - 1), Math.max(0, r.column - 1)),
            ),
            r.message,
          ),
      );
    }
    const list = byFile.get(d.file) ?? [];
    list.push(diag);
    byFile.set(d.file, list);
  }
  return byFile;
}
