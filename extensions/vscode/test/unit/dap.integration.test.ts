// The extension's debugger glue against the real `tlens dap`: the `stopped` events it parses
// (parseStopped) and the graph panel's live request at a stop (`tensorlens/graph`), with the
// adapter's real answers. Runs when a built binary is found (TLENS, else build/tlens at the
// repository root); skipped otherwise. The panel part accepts both adapters: one without the
// request (the panel only outlines the stopped node) and one with it (the panel shows the live
// graph), checking each fully, so it follows the debugger's progress by itself.
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type * as vscodeTypes from 'vscode';

import { parseStopped } from '../../src/debugAdapter';
import { GraphPanel } from '../../src/graphView';
import * as vscode from '../stub/vscode';

const repo = path.resolve(__dirname, '../../../../..');
const tlens = process.env.TLENS ?? path.join(repo, 'build/tlens');
const skip = existsSync(tlens) ? false : `no tlens binary at ${tlens} (build it, or set TLENS)`;

type Message = { seq: number; type: string; command?: string; event?: string; request_seq?: number; success?: boolean; message?: string; body?: any };

/// A minimal DAP client over `tlens dap`'s stdio, as VS Code runs it.
class Dap {
  private readonly proc: ChildProcess;
  private buffer = Buffer.alloc(0);
  private seq = 1;
  private readonly pending = new Map<number, (m: Message) => void>();
  private readonly events: Message[] = [];
  private readonly waiters: (() => void)[] = [];

  constructor() {
    this.proc = spawn(tlens, ['dap'], { stdio: ['pipe', 'pipe', 'ignore'], cwd: repo });
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
      if (msg.type === 'response') this.pending.get(msg.request_seq as number)?.(msg);
      else if (msg.type === 'event') {
        this.events.push(msg);
        for (const w of this.waiters.splice(0)) w();
      }
    }
  }

  /// Resolves with the response (success or not); rejects only on silence.
  request(command: string, args?: unknown): Promise<Message> {
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response to ${command}`)), 30_000);
      this.pending.set(seq, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      const body = JSON.stringify({ seq, type: 'request', command, arguments: args });
      this.proc.stdin?.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  /// As vscode.DebugSession.customRequest: the body, or a rejection with the adapter's message.
  async customRequest(command: string, args?: unknown): Promise<unknown> {
    const r = await this.request(command, args);
    if (!r.success) throw new Error(r.message);
    return r.body;
  }

  async event(name: string): Promise<Message> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const i = this.events.findIndex((e) => e.event === name);
      if (i >= 0) return this.events.splice(i, 1)[0];
      if (Date.now() > deadline) throw new Error(`no ${name} event`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  async launch(program: string, breakpoints: { path: string; lines: number[] } | undefined, filters: string[]): Promise<void> {
    assert.equal((await this.request('initialize', { adapterID: 'tensorlens', linesStartAt1: true, columnsStartAt1: true })).success, true);
    assert.equal((await this.request('launch', { program, checkNumerics: true })).success, true);
    await this.event('initialized');
    if (breakpoints) {
      await this.request('setBreakpoints', { source: { path: breakpoints.path }, breakpoints: breakpoints.lines.map((line) => ({ line })) });
    }
    await this.request('setExceptionBreakpoints', { filters });
    await this.request('configurationDone');
  }

  async close(): Promise<void> {
    await this.request('disconnect', {}).catch(() => undefined);
    this.proc.kill();
  }
}

/// What the graph panel sees of a session: its name, type, configuration and customRequest.
function sessionOf(dap: Dap, program: string): vscodeTypes.DebugSession {
  return {
    name: 'tensorlens: e2e',
    type: 'tensorlens',
    configuration: { program },
    customRequest: (command: string, args?: unknown) => dap.customRequest(command, args),
  } as unknown as vscodeTypes.DebugSession;
}

type Posted = { type: string; node?: string; numerics?: unknown; stoppedAt?: string; live?: boolean; graph?: { graphs: { nodes: { name: string; numerics?: string; ran?: boolean }[] }[] } };

describe('with the real tlens dap', { skip }, () => {
  const adapters: Dap[] = [];
  after(async () => {
    for (const a of adapters) await a.close();
  });

  it('the nan_inf stop of examples/tfdbg_nan.py: the node and Inf parsed, and the graph panel marks it', async () => {
    const program = path.join(repo, 'examples/tfdbg_nan.py');
    const dap = new Dap();
    adapters.push(dap);
    await dap.launch(program, undefined, ['nan_inf']);
    const stopped = await dap.event('stopped');
    const stop = parseStopped(stopped.body);
    assert.deepEqual(stop, { reason: 'exception', node: 'cross_entropy/Log', numerics: 'inf' }, JSON.stringify(stopped.body));

    vscode.shown.panels = [];
    const panel = new GraphPanel(vscode.Uri.file('/ext') as unknown as vscodeTypes.Uri, () => tlens, () => true);
    await panel.show(program);
    const p = vscode.shown.panels[0];
    p.receive({ type: 'ready' });
    await panel.onStop(sessionOf(dap, program), stop);
    const m = p.posted[p.posted.length - 1] as Posted;
    if (m.type === 'stopped') {
      // An adapter without tensorlens/graph: the outline and the mark on tlens graph's graph.
      assert.deepEqual(m, { type: 'stopped', node: 'cross_entropy/Log', numerics: 'inf' });
    } else {
      // With it: the graph as it runs, stopped at Log, Log marked Inf and run, its consumer not.
      assert.equal(m.type, 'graph');
      assert.equal(m.live, true);
      assert.equal(m.stoppedAt, 'cross_entropy/Log');
      const nodes = m.graph?.graphs.flatMap((g) => g.nodes) ?? [];
      const log = nodes.find((n) => n.name === 'cross_entropy/Log');
      assert.equal(log?.numerics, 'inf');
      assert.equal(log?.ran, true);
      assert.notEqual(nodes.find((n) => n.name === 'cross_entropy/Mul')?.ran, true);
    }
  });

  it('a breakpoint stop at a graph node is parsed to its node name', async () => {
    const program = path.join(repo, 'tests/dap/e2e/fixtures/graph_loop.py');
    const dap = new Dap();
    adapters.push(dap);
    const line = readFileSync(program, 'utf8').split('\n').findIndex((l) => l.includes('#$ matmul')) + 1;
    await dap.launch(program, { path: program, lines: [line] }, ['nan_inf']);
    assert.deepEqual(parseStopped((await dap.event('stopped')).body), { reason: 'breakpoint' }, 'graph construction: a Python line');
    await dap.request('continue', { threadId: 1 });
    assert.deepEqual(parseStopped((await dap.event('stopped')).body), { reason: 'breakpoint', node: 'y' });
  });
});
