// `tlens lsp` driven by a real LSP client (vscode-languageserver-protocol over the stdio of the
// spawned server): initialize with the examples as the workspace, work-done progress, diagnostics
// of open and unopened files, hover, an incremental edit, definition, a quick fix, a clean
// shutdown. Usage: node client.test.js /path/to/tlens
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { LspClient, fileUri } = require('./lspClient');

const tlens = process.argv[2] || process.env.TLENS;
if (!tlens || !fs.existsSync(tlens)) {
  console.error('usage: node client.test.js /path/to/tlens');
  process.exit(2);
}
const repo = path.resolve(__dirname, '../../..');
const examples = path.join(repo, 'examples');
const buggy = new Set(['shape_bug.py', 'int_bias.py']);
const withWarnings = new Set(['tfdbg_nan.py']);  // the log-softmax lint, on purpose

test('initialize, workspace diagnostics with progress, hover, an incremental edit, shutdown', async () => {
  const c = new LspClient([tlens, 'lsp']);
  try {
    const init = await c.initialize(examples, {
      window: { workDoneProgress: true },
      general: { positionEncodings: ['utf-16'] },
      textDocument: { publishDiagnostics: { versionSupport: true } },
    });
    assert.equal(init.capabilities.positionEncoding, 'utf-16');
    assert.equal(init.capabilities.textDocumentSync.change, 2);
    assert.equal(init.serverInfo.name, 'tlens');

    // Every example is analysed in the background (not opened): diagnostics without a version.
    const files = fs.readdirSync(examples).filter((f) => f.endsWith('.py')).sort();
    assert.ok(files.length >= 5);
    for (const f of files) {
      const d = await c.diagnosticsFor(fileUri(path.join(examples, f)), null);
      const serious = d.diagnostics.filter((x) => x.severity <= 2);
      if (buggy.has(f)) assert.ok(serious.some((x) => x.severity === 1), `${f} should have an error`);
      else if (withWarnings.has(f)) assert.deepEqual(serious.map((x) => x.code), ['log-softmax'], f);
      else assert.deepEqual(d.diagnostics, [], `${f} should have no diagnostics`);
    }
    // Progress: begin ... end on the token the client created.
    await c.until(() => c.progress.some((p) => p.value.kind === 'end'), 20000, 'progress end');
    assert.equal(c.progress[0].value.kind, 'begin');
    assert.match(c.progress[0].value.title, /workspace/);
    assert.equal(c.progress[c.progress.length - 1].value.message, `${files.length}/${files.length} files`);
    assert.equal(new Set(c.progress.map((p) => p.token)).size, 1);

    // Open shape_bug.py: the matmul error, at line 10, with where both shapes came from.
    const bugPath = path.join(examples, 'shape_bug.py');
    const uri = fileUri(bugPath);
    const text = fs.readFileSync(bugPath, 'utf8');
    await c.open(uri, text, 1);
    const d1 = await c.diagnosticsFor(uri, 1);
    assert.equal(d1.diagnostics.length, 1);
    const err = d1.diagnostics[0];
    assert.equal(err.severity, 1);
    assert.equal(err.code, 'shape-error');
    assert.match(err.message, /Dimensions must be equal, but are 256 and 784/);
    assert.equal(err.range.start.line, 9);
    assert.ok(err.relatedInformation.length >= 2);

    // Hover over `hidden` (line 9) and over the matmul.
    const lines = text.split('\n');
    const hiddenLine = lines.findIndex((l) => l.startsWith('hidden ='));
    const h = await c.request('textDocument/hover', { textDocument: { uri }, position: { line: hiddenLine, character: 1 } });
    assert.equal(h.contents.kind, 'markdown');
    assert.match(h.contents.value, /float32\[\?, 256\]|float32\[batch, 256\]/);
    const w2Line = lines.findIndex((l) => l.startsWith('w2 ='));
    const hw = await c.request('textDocument/hover', { textDocument: { uri }, position: { line: w2Line, character: 0 } });
    assert.match(hw.contents.value, /float32\[784, 10\]/);

    // The quick fix offered for the error is a real edit of this document... (none here: no
    // transpose fixes 256 vs 784), and the code action request answers an array.
    const actions = await c.request('textDocument/codeAction', {
      textDocument: { uri }, range: err.range, context: { diagnostics: [err] },
    });
    assert.ok(Array.isArray(actions));

    // Incremental edit: `[784, 10]` -> `[256, 10]` on the w2 line; the error goes away.
    const col = lines[w2Line].indexOf('784');
    await c.change(uri, 2, [{ range: { start: { line: w2Line, character: col }, end: { line: w2Line, character: col + 3 } }, text: '256' }]);
    const d2 = await c.diagnosticsFor(uri, 2);
    assert.deepEqual(d2.diagnostics, []);
    const hw2 = await c.request('textDocument/hover', { textDocument: { uri }, position: { line: w2Line, character: 0 } });
    assert.match(hw2.contents.value, /float32\[256, 10\]/);

    // An edit that breaks it again, then closing: the workspace file goes back to its disk version.
    await c.change(uri, 3, [{ range: { start: { line: w2Line, character: col }, end: { line: w2Line, character: col + 3 } }, text: '999' }]);
    const d3 = await c.diagnosticsFor(uri, 3);
    assert.equal(d3.diagnostics.length, 1);
    const before = (c.diagnostics.get(uri) || []).length;
    await c.close(uri);
    await c.until(() => (c.diagnostics.get(uri) || []).length > before, 20000, 'diagnostics after close');
    const afterClose = c.diagnostics.get(uri).slice(-1)[0];
    assert.equal(afterClose.version, undefined);
    assert.match(afterClose.diagnostics[0].message, /256 and 784/);

    // Errors: an unknown method, a hover on an unknown document; the server keeps serving.
    await assert.rejects(c.request('textDocument/frobnicate', {}), (e) => e.code === -32601);
    await assert.rejects(
      c.request('textDocument/hover', { textDocument: { uri: 'file:///nope.py' }, position: { line: 0, character: 0 } }),
      (e) => e.code === -32602);

    const status = await c.shutdown();
    assert.deepEqual(status, { code: 0, signal: null });
  } finally {
    if (c.proc.exitCode === null) c.proc.kill();
  }
});

test('definition across files and a reshape quick fix, in a temporary workspace', async () => {
  const ws = fs.mkdtempSync(path.join(require('os').tmpdir(), 'tlens-client-'));
  try {
    fs.writeFileSync(path.join(ws, 'layers.py'), 'import tensorflow as tf\n\ndef dense(x, n):\n    return tf.zeros([2, n])\n');
    const mainText = 'import tensorflow as tf\nfrom layers import dense\n\nh = dense(tf.zeros([2, 3]), 6)\nr = tf.reshape(h, [4, 2])\n';
    fs.writeFileSync(path.join(ws, 'main.py'), mainText);
    const c = new LspClient([tlens, 'lsp']);
    try {
      await c.initialize(ws, {});
      const uri = fileUri(path.join(ws, 'main.py'));
      await c.open(uri, mainText, 1);
      const d = await c.diagnosticsFor(uri, 1);
      assert.equal(d.diagnostics.length, 1);
      assert.match(d.diagnostics[0].message, /Cannot reshape a tensor with 12 elements/);
      const def = await c.request('textDocument/definition', { textDocument: { uri }, position: { line: 3, character: 5 } });
      assert.equal(def.length, 1);
      assert.equal(def[0].uri, fileUri(path.join(ws, 'layers.py')));
      assert.deepEqual(def[0].range.start, { line: 2, character: 4 });
      // The editor opens the definition's file (go to definition), then asks for its references.
      await c.open(def[0].uri, fs.readFileSync(path.join(ws, 'layers.py'), 'utf8'), 1);
      const refs = await c.request('textDocument/references', {
        textDocument: { uri: def[0].uri }, position: { line: 2, character: 5 }, context: { includeDeclaration: true },
      });
      assert.equal(refs.length, 3);  // the def, the import, the call
      const actions = await c.request('textDocument/codeAction', {
        textDocument: { uri }, range: d.diagnostics[0].range, context: { diagnostics: d.diagnostics },
      });
      const titles = actions.map((a) => a.title);
      assert.ok(titles.some((t) => t.startsWith('Reshape to [6, 2]')), titles.join('\n'));
      const edit = actions.find((a) => a.title.startsWith('Reshape to [6, 2]')).edit.changes[uri][0];
      assert.equal(edit.newText, '6');
      assert.deepEqual(edit.range.start, { line: 4, character: 19 });
      assert.deepEqual(await c.shutdown(), { code: 0, signal: null });
    } finally {
      if (c.proc.exitCode === null) c.proc.kill();
    }
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
