// The extension's use of the real `tlens` command line: "Check workspace" parsing `tlens check
// --format json`, and "Show graph" posting what `tlens graph --format json` prints. Runs when a
// built binary is found (TLENS, else build/tlens at the repository root); skipped otherwise.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type * as vscodeTypes from 'vscode';

import { parseCheckOutput, toDiagnostics } from '../../src/checkWorkspace';
import { GraphPanel } from '../../src/graphView';
import { runTlens } from '../../src/tlensCli';
import * as vscode from '../stub/vscode';

const repo = path.resolve(__dirname, '../../../../..');
const tlens = process.env.TLENS ?? path.join(repo, 'build/tlens');
const skip = existsSync(tlens) ? false : `no tlens binary at ${tlens} (build it, or set TLENS)`;

describe('with the real tlens binary', { skip }, () => {
  it('"Check workspace" turns tlens check output into diagnostics with related locations', async () => {
    const r = await runTlens(tlens, ['check', '--format', 'json', 'examples/shape_bug.py'], repo);
    const items = parseCheckOutput(r.stdout);
    assert.ok(items.length >= 1, r.stdout);
    const byFile = toDiagnostics(items);
    const [d] = byFile.get('examples/shape_bug.py') as unknown as vscode.Diagnostic[];
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /Dimensions must be equal/);
    assert.ok((d.relatedInformation?.length ?? 0) >= 2, 'where both shapes came from');
  });

  it('"Show graph" posts the graph of an example program', async () => {
    vscode.shown.panels = [];
    const panel = new GraphPanel(vscode.Uri.file('/ext') as unknown as vscodeTypes.Uri, () => tlens, () => true);
    await panel.show(path.join(repo, 'examples/tfdbg_nan.py'));
    const [p] = vscode.shown.panels;
    p.receive({ type: 'ready' });
    const m = p.posted[0] as { type: string; graph: { graphs: { nodes: { name: string; source?: { file: string } }[] }[] } };
    assert.equal(m.type, 'graph');
    const names = m.graph.graphs.flatMap((g) => g.nodes.map((n) => n.name));
    assert.ok(names.includes('cross_entropy/Log'));
    const log = m.graph.graphs[0].nodes.find((n) => n.name === 'cross_entropy/Log');
    assert.equal(log?.source?.file, path.join(repo, 'examples/tfdbg_nan.py'), 'sources are absolute: the program path is');
  });
});
