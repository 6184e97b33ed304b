#!/usr/bin/env node
// A stand-in for `tlens lsp` in the Neovim documentation test: answers initialize, records what
// the client sent (to the file in FAKE_LSP_LOG), and publishes one diagnostic for each opened
// document. Content-Length framing by hand, so it needs nothing from npm.
'use strict';
const fs = require('fs');

const log = process.env.FAKE_LSP_LOG;
const record = (m) => log && fs.appendFileSync(log, JSON.stringify(m) + '\n');
let buf = Buffer.alloc(0);

function send(m) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m }), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

function handle(m) {
  record({ method: m.method, params: m.params });
  if (m.method === 'initialize') {
    send({ id: m.id, result: { capabilities: { textDocumentSync: 1, hoverProvider: true }, serverInfo: { name: 'fake-tlens' } } });
  } else if (m.method === 'textDocument/didOpen') {
    send({
      method: 'textDocument/publishDiagnostics',
      params: {
        uri: m.params.textDocument.uri,
        diagnostics: [
          {
            range: { start: { line: 0, character: 4 }, end: { line: 0, character: 9 } },
            severity: 1,
            source: 'tlens',
            message: 'inner dimensions must be equal, but are 3 and 4',
          },
        ],
      },
    });
  } else if (m.method === 'shutdown') {
    send({ id: m.id, result: null });
  } else if (m.method === 'exit') {
    process.exit(0);
  } else if (m.id !== undefined && m.method) {
    send({ id: m.id, error: { code: -32601, message: `not in the fake: ${m.method}` } });
  }
}

process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const m = /Content-Length: *(\d+)/i.exec(buf.subarray(0, end).toString('ascii'));
    if (!m) throw new Error('no Content-Length');
    const len = Number(m[1]);
    if (buf.length < end + 4 + len) return;
    const body = buf.subarray(end + 4, end + 4 + len).toString('utf8');
    buf = buf.subarray(end + 4 + len);
    handle(JSON.parse(body));
  }
});
