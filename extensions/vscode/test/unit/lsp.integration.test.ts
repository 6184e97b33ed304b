// The extension's settings as the real `tlens lsp` sees them: the initializationOptions the
// extension sends (initializationOptions(settings)) and the workspace/didChangeConfiguration the
// language client sends for the `tensorlens` section on every change. Runs when a built binary
// is found (TLENS, else build/tlens at the repository root); skipped otherwise.
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';

import { initializationOptions, kDefaultSettings } from '../../src/config';

const repo = path.resolve(__dirname, '../../../../..');
const tlens = process.env.TLENS ?? path.join(repo, 'build/tlens');
const skip = existsSync(tlens) ? false : `no tlens binary at ${tlens} (build it, or set TLENS)`;

type Message = { id?: number; method?: string; params?: any; result?: any; error?: any };
type Diagnostic = { range: { start: { line: number } }; severity: number; message: string; code?: string };

/// A minimal LSP client over the server's stdio (Content-Length framing), as the language
/// client runs it: `tlens lsp --stdio`.
class Client {
  private readonly proc: ChildProcess;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (m: Message) => void>();
  private readonly diagnostics = new Map<string, Diagnostic[][]>();
  private readonly waiters: (() => void)[] = [];

  constructor() {
    this.proc = spawn(tlens, ['lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.proc.stdout?.on('data', (d: Buffer) => this.onData(d));
  }

  private onData(d: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, d]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const m = /Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, end).toString('ascii'));
      const length = m ? Number(m[1]) : 0;
      if (this.buffer.length < end + 4 + length) return;
      const msg = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(end + 4 + length);
      if (msg.id !== undefined && !msg.method) this.pending.get(msg.id)?.(msg);
      else if (msg.method === 'textDocument/publishDiagnostics') {
        const list = this.diagnostics.get(msg.params.uri) ?? [];
        list.push(msg.params.diagnostics);
        this.diagnostics.set(msg.params.uri, list);
        for (const w of this.waiters.splice(0)) w();
      } else if (msg.id !== undefined && msg.method) {
        this.send({ id: msg.id, result: null }); // workspace/configuration and the like
      }
    }
  }

  private send(m: object): void {
    const body = JSON.stringify({ jsonrpc: '2.0', ...m });
    this.proc.stdin?.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  request(method: string, params: unknown): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 30_000);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        if (m.error) reject(new Error(m.error.message));
        else resolve(m.result);
      });
      this.send({ id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  /// The next diagnostics published for `uri` after `count` earlier publications.
  async diagnosticsFor(uri: string, count = 0, timeoutMs = 30_000): Promise<Diagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    while ((this.diagnostics.get(uri)?.length ?? 0) <= count) {
      if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
    return (this.diagnostics.get(uri) as Diagnostic[][])[count];
  }

  published(uri: string): number {
    return this.diagnostics.get(uri)?.length ?? 0;
  }

  async close(): Promise<void> {
    await this.request('shutdown', null).catch(() => undefined);
    this.notify('exit', null);
    this.proc.kill();
  }
}

/// A program whose shape error sits after 600 statements (about 50 ms of analysis here, far
/// inside the default 500 ms even on a loaded machine): a 5 ms budget cannot reach it
/// (`tlens check --budget-ms 5` reports budget-exceeded instead).
function slowProgram(): { file: string; uri: string; text: string } {
  const lines = ['import tensorflow as tf'];
  for (let i = 0; i < 600; ++i) lines.push(`a${i} = tf.matmul(tf.zeros([3, 4]), tf.ones([4, 5]))`);
  lines.push('bad = tf.matmul(tf.zeros([3, 4]), tf.ones([5, 6]))');
  const text = lines.join('\n') + '\n';
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'tlens-lsp-')), 'slow.py');
  writeFileSync(file, text);
  return { file, uri: pathToFileURL(file).href, text };
}

async function started(options: object): Promise<Client> {
  const c = new Client();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tlens-lsp-root-'));
  await c.request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    capabilities: { textDocument: { inlayHint: {} }, workspace: { configuration: false } },
    initializationOptions: options,
  });
  c.notify('initialized', {});
  return c;
}

function open(c: Client, p: { uri: string; text: string }, version = 1): void {
  c.notify('textDocument/didOpen', { textDocument: { uri: p.uri, languageId: 'python', version, text: p.text } });
}

// analysisBudgetMs is the wall-clock safety limit: hitting it reports `time-limit` (the work
// budget, counted in interpreter steps, reports `budget-exceeded`).
const budgetCut = (d: Diagnostic[]) =>
  d.some((x) => x.code === 'time-limit' || x.code === 'budget-exceeded' || /time limit was hit/.test(x.message));
const shapeError = (d: Diagnostic[]) => d.some((x) => x.severity === 1 && /Dimensions must be equal, but are 4 and 5/.test(x.message));

describe('the settings with the real tlens lsp', { skip }, () => {
  const clients: Client[] = [];
  after(async () => {
    for (const c of clients) await c.close();
  });

  it('accepts the initialization options the extension sends and reports the shape error', async () => {
    const c = await started(initializationOptions(kDefaultSettings));
    clients.push(c);
    const p = { uri: pathToFileURL('/tmp/tlens-settings-small.py').href, text: 'import tensorflow as tf\nc = tf.matmul(tf.zeros([3, 4]), tf.ones([5, 6]))\n' };
    open(c, p);
    const d = await c.diagnosticsFor(p.uri);
    assert.ok(shapeError(d), JSON.stringify(d));
  });

  it('analysisBudgetMs in initializationOptions limits the analysis', async () => {
    const c = await started({ analysisBudgetMs: 5, inlayHints: true, virtualGpus: 0 });
    clients.push(c);
    const p = slowProgram();
    open(c, p);
    const d = await c.diagnosticsFor(p.uri, 0, 60_000);
    // A 5 ms safety limit cuts the file before the error (the default reaches it: the first test).
    assert.ok(budgetCut(d) && !shapeError(d), JSON.stringify(d.map((x) => x.message)));
  });

  it(
    'a changed budget arrives by workspace/didChangeConfiguration and re-analyses the open file',
    async () => {
      const c = await started(initializationOptions(kDefaultSettings));
      clients.push(c);
      const p = slowProgram();
      open(c, p);
      await c.diagnosticsFor(p.uri, 0, 60_000);
      // What vscode-languageclient sends for synchronize.configurationSection 'tensorlens'.
      c.notify('workspace/didChangeConfiguration', {
        settings: { tensorlens: { path: 'tlens', analysis: { budgetMs: 5 }, inlayHints: { enabled: true } } },
      });
      // The new budget alone re-analyses the open file: no edit needed.
      const d = await c.diagnosticsFor(p.uri, 1, 60_000);
      assert.ok(budgetCut(d) && !shapeError(d), JSON.stringify(d.map((x) => x.message)));
    },
  );

  it('inlayHints: false in initializationOptions means no hints', async () => {
    const c = await started({ analysisBudgetMs: 500, inlayHints: false });
    clients.push(c);
    const p = { uri: pathToFileURL('/tmp/tlens-settings-hints.py').href, text: 'import tensorflow as tf\nx = tf.zeros([3, 4])\ny = tf.matmul(x, tf.ones([4, 5]))\n' };
    open(c, p);
    await c.diagnosticsFor(p.uri);
    const hints = (await c.request('textDocument/inlayHint', {
      textDocument: { uri: p.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    })) as unknown[] | null;
    assert.deepEqual(hints, [], 'the Neovim and Emacs set-ups rely on the server for this');
    // With hints on, the same request does answer: the check above is not vacuous.
    const on = await started({ analysisBudgetMs: 500, inlayHints: true });
    clients.push(on);
    open(on, p);
    await on.diagnosticsFor(p.uri);
    const shown = (await on.request('textDocument/inlayHint', {
      textDocument: { uri: p.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    })) as unknown[];
    assert.ok(shown.length >= 2, JSON.stringify(shown));
  });

  it('virtualGpus: hovers show placement as on a machine with that many GPUs', async () => {
    const c = await started(initializationOptions({ ...kDefaultSettings, virtualGpus: 2 }));
    clients.push(c);
    const p = {
      uri: pathToFileURL('/tmp/tlens-settings-gpus.py').href,
      text: 'import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 4])\ny = tf.matmul(x, tf.zeros([4, 2]))\n',
    };
    open(c, p);
    await c.diagnosticsFor(p.uri);
    const hover = async () =>
      ((await c.request('textDocument/hover', { textDocument: { uri: p.uri }, position: { line: 2, character: 0 } })) as {
        contents: { value: string };
      }).contents.value;
    assert.match(await hover(), /\/gpu:0/);
    c.notify('workspace/didChangeConfiguration', { settings: { tensorlens: { virtualGpus: 0 } } });
    await c.diagnosticsFor(p.uri, 1);
    const cpu = await hover();
    assert.match(cpu, /\/cpu:0/);
    assert.doesNotMatch(cpu, /\/gpu:/);
  });
});
