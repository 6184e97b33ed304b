import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { parseCheckOutput, toDiagnostics } from '../../src/checkWorkspace';
import { graphPageHtml, makeNonce } from '../../src/graphHtml';
import { graphArgs, revealTarget } from '../../src/graphView';
import { ServerStatus } from '../../src/status';
import * as vscode from '../stub/vscode';

describe('status-bar item', () => {
  beforeEach(() => vscode.resetRecorded());

  it('is shown at once and opens the output channel when clicked', () => {
    const s = new ServerStatus('tensorlens.showOutput');
    const [item] = vscode.recorded.statusBarItems;
    assert.equal(item.visible, true);
    assert.equal(item.command, 'tensorlens.showOutput');
    assert.equal(s.state, 'stopped');
  });

  it('follows the server state, red only when it failed', () => {
    const s = new ServerStatus('x');
    const [item] = vscode.recorded.statusBarItems;
    s.set('running');
    assert.match(item.text, /tlens$/);
    assert.match(String(item.tooltip), /running/);
    s.set('restarting', '2 crash(es) recently');
    assert.match(item.text, /restarting/);
    assert.match(String(item.tooltip), /2 crash/);
    assert.equal(item.backgroundColor, undefined);
    s.set('failed');
    assert.equal((item.backgroundColor as unknown as vscode.ThemeColor).id, 'statusBarItem.errorBackground');
    s.dispose();
    assert.equal(item.disposed, true);
  });
});

describe('check workspace', () => {
  const out = JSON.stringify([
    {
      file: 'examples/shape_bug.py',
      line: 12,
      column: 5,
      endLine: 12,
      endColumn: 20,
      severity: 'error',
      message: 'inner dimensions must be equal, but are 3 and 4',
      code: 'shape-mismatch',
      related: [{ file: 'examples/shape_bug.py', line: 8, column: 1, message: 'a: float32[2, 3] from here' }],
    },
    { file: 'examples/tfdbg_nan.py', line: 44, column: 14, severity: 'warning', message: 'tf.log of a softmax', code: '' },
    { nonsense: true },
  ]);

  it('parses tlens check --format json, skipping malformed entries', () => {
    assert.equal(parseCheckOutput(out).length, 2);
    assert.throws(() => parseCheckOutput('{}'), /did not print an array/);
  });

  it('converts to 0-based diagnostics grouped by file, with related locations', () => {
    const byFile = toDiagnostics(parseCheckOutput(out));
    assert.deepEqual([...byFile.keys()], ['examples/shape_bug.py', 'examples/tfdbg_nan.py']);
    const [d] = byFile.get('examples/shape_bug.py') as unknown as vscode.Diagnostic[];
    assert.deepEqual(d.range.start, new vscode.Position(11, 4));
    assert.deepEqual(d.range.end, new vscode.Position(11, 19));
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(d.source, 'tlens check');
    assert.equal(d.code, 'shape-mismatch');
    assert.equal(d.relatedInformation?.[0].message, 'a: float32[2, 3] from here');
    const [w] = byFile.get('examples/tfdbg_nan.py') as unknown as vscode.Diagnostic[];
    assert.equal(w.severity, vscode.DiagnosticSeverity.Warning);
    assert.deepEqual(w.range.start, w.range.end);
    assert.equal(w.code, undefined, 'an empty code is left out');
  });
});

describe('graph view (extension side)', () => {
  it('asks tlens for JSON, abstract unless configured otherwise', () => {
    assert.deepEqual(graphArgs('/ws/p.py', true), ['graph', '--format', 'json', '--abstract', '/ws/p.py']);
    assert.deepEqual(graphArgs('/ws/p.py', false), ['graph', '--format', 'json', '/ws/p.py']);
  });

  it('turns a reveal message into a 0-based position in an absolute file', () => {
    assert.deepEqual(revealTarget({ file: 'p.py', line: 10, column: 3 }, '/ws'), { file: '/ws/p.py', line: 9, character: 2 });
    assert.deepEqual(revealTarget({ file: '/a/p.py', line: 0 }, '/ws'), { file: '/a/p.py', line: 0, character: 0 });
  });

  it('builds a page whose only script carries the nonce the CSP allows', () => {
    const nonce = makeNonce();
    assert.match(nonce, /^[A-Za-z0-9]{32}$/);
    const html = graphPageHtml({ scriptUri: 'vscode-resource:/g.js', styleUri: 'vscode-resource:/g.css', cspSource: 'vscode-webview:', nonce });
    assert.match(html, new RegExp(`script-src 'nonce-${nonce}'`));
    assert.match(html, /default-src 'none'/);
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.match(html, new RegExp(`<script nonce="${nonce}" src="vscode-resource:/g.js">`));
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
  });
});
