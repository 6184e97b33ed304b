// A small LSP client over the stdio of a spawned `tlens lsp` (or any server command), built on
// vscode-languageserver-protocol: the same JSON-RPC stack VS Code's client uses. Shared by the
// client test (client.test.js) and the benchmark (bench/lsp_bench.js).
'use strict';

const { spawn } = require('child_process');
const path = require('path');
const { pathToFileURL } = require('url');
const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  ShutdownRequest,
  ExitNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification,
  WorkDoneProgressCreateRequest,
  WorkDoneProgress,
} = require('vscode-languageserver-protocol/node');

function fileUri(p) {
  return pathToFileURL(path.resolve(p)).href;
}

class LspClient {
  /** command: [executable, ...args] */
  constructor(command, options = {}) {
    this.proc = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], ...options });
    this.stderr = '';
    this.proc.stderr.on('data', (d) => { this.stderr += d.toString(); });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    this.conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout), new StreamMessageWriter(this.proc.stdin));
    this.diagnostics = new Map();  // uri -> [{version, diagnostics, at}]
    this.waiters = [];
    this.progress = [];  // {token, value}
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const list = this.diagnostics.get(p.uri) || [];
      list.push({ version: p.version, diagnostics: p.diagnostics, at: process.hrtime.bigint() });
      this.diagnostics.set(p.uri, list);
      this.waiters = this.waiters.filter((w) => !w());
    });
    this.conn.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      this.conn.onProgress(WorkDoneProgress.type, params.token, (value) => {
        this.progress.push({ token: params.token, value });
        this.waiters = this.waiters.filter((w) => !w());
      });
      return null;
    });
    this.conn.listen();
  }

  async initialize(rootPath, capabilities = {}) {
    const result = await this.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: rootPath ? fileUri(rootPath) : null,
      workspaceFolders: rootPath ? [{ uri: fileUri(rootPath), name: path.basename(rootPath) }] : null,
      capabilities,
    });
    await this.conn.sendNotification(InitializedNotification.type, {});
    return result;
  }

  open(uri, text, version = 1) {
    return this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'python', version, text },
    });
  }

  change(uri, version, contentChanges) {
    return this.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges,
    });
  }

  close(uri) {
    return this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  request(method, params) {
    return this.conn.sendRequest(method, params);
  }

  /** Resolves when `pred()` returns a truthy value (checked now and after each notification). */
  until(pred, timeoutMs = 20000, what = 'condition') {
    return new Promise((resolve, reject) => {
      const check = () => {
        const v = pred();
        if (v) {
          clearTimeout(timer);
          resolve(v);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      if (!check()) this.waiters.push(check);
    });
  }

  /** The diagnostics published for `uri` with `version` (undefined: any, null: none). */
  diagnosticsFor(uri, version, timeoutMs) {
    return this.until(() => {
      const list = this.diagnostics.get(uri) || [];
      for (let i = list.length - 1; i >= 0; --i)
        if (version === undefined || list[i].version === (version === null ? undefined : version)) return list[i];
      return undefined;
    }, timeoutMs, `diagnostics for ${uri} version ${version}`);
  }

  async shutdown() {
    await this.conn.sendRequest(ShutdownRequest.type);
    await this.conn.sendNotification(ExitNotification.type);
    const status = await this.exited;
    this.conn.dispose();
    return status;
  }
}

module.exports = { LspClient, fileUri };
