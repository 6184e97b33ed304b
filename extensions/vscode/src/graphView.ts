// "Show graph": a webview panel with the graphs the current program builds (`tlens graph
// --format json`), kept in step with the debugger: at every stop it shows the running graph the
// debugger describes (`tensorlens/graph`: what ran, NaN/Inf marks, the stopped node), or at
// least highlights the node the program stopped at.
// The page (media/graphView.js) and this file talk only through the messages below.
import * as path from 'path';
import * as vscode from 'vscode';

import { kDebugType } from './config';
import { graphPageHtml, makeNonce } from './graphHtml';
import { StopInfo } from './debugAdapter';
import { CliResult, runTlens } from './tlensCli';

/// Per-node NaN/Inf marks, by node name.
export type NumericsMap = Record<string, 'nan' | 'inf'>;

/// Extension -> page. `live`: the graph came from the debugger (`tensorlens/graph`), so nodes
/// without `ran: true` did not run in this run; `stoppedGraph` picks the graph `stoppedAt` is in.
export type ToPage =
  | { type: 'graph'; graph: unknown; title: string; stoppedAt?: string; stoppedGraph?: number; numerics?: NumericsMap; live?: boolean }
  | { type: 'stopped'; node?: string; numerics?: 'nan' | 'inf' }
  | { type: 'error'; message: string };

/// What the debugger answers to the custom request `tensorlens/graph`: the object `tlens graph
/// --format json` prints, plus per node `ran: true` (it ran in the current run) and `numerics`
/// (its output held NaN or Inf), and where the program is stopped.
export interface LiveGraph {
  graphs: { nodes?: { name?: unknown; ran?: unknown; numerics?: unknown }[] }[];
  stopped?: { graph?: unknown; node?: unknown };
}

/// Reads a `tensorlens/graph` answer: undefined unless it has a `graphs` array. The stopped node
/// and its graph are the answer's (else the `stopped` event's node). The nodes' own `ran` and
/// `numerics` go to the page as they are; `numerics` here adds the event's mark for its node
/// when the answer has none for it.
export function readLiveGraph(
  body: unknown,
  stop: StopInfo | undefined,
): { graph: LiveGraph; stoppedAt?: string; stoppedGraph?: number; numerics: NumericsMap } | undefined {
  if (!body || typeof body !== 'object' || !Array.isArray((body as LiveGraph).graphs)) return undefined;
  const graph = body as LiveGraph;
  const st = graph.stopped && typeof graph.stopped === 'object' ? graph.stopped : undefined;
  const stoppedAt = typeof st?.node === 'string' && st.node !== '' ? st.node : stop?.node;
  const stoppedGraph =
    typeof st?.graph === 'number' && Number.isInteger(st.graph) && st.graph >= 0 && st.graph < graph.graphs.length ? st.graph : undefined;
  const numerics: NumericsMap = {};
  if (stop?.node && stop.numerics && stop.node === stoppedAt) {
    const nodes = graph.graphs[stoppedGraph ?? 0]?.nodes;
    const marked = Array.isArray(nodes) && nodes.some((n) => n?.name === stop.node && (n.numerics === 'nan' || n.numerics === 'inf'));
    if (!marked) numerics[stop.node] = stop.numerics;
  }
  return { graph, stoppedAt, stoppedGraph, numerics };
}

/// Page -> extension.
export type FromPage = { type: 'ready' } | { type: 'reveal'; file: string; line: number; column?: number };

/// Where a `reveal` message points, as a 0-based position in an absolute file.
export function revealTarget(m: { file: string; line: number; column?: number }, baseDir: string) {
  const file = path.isAbsolute(m.file) ? m.file : path.resolve(baseDir, m.file);
  return { file, line: Math.max(0, (m.line | 0) - 1), character: Math.max(0, ((m.column ?? 1) | 0) - 1) };
}

export function graphArgs(program: string, abstract: boolean): string[] {
  return ['graph', '--format', 'json', ...(abstract ? ['--abstract'] : []), program];
}

export class GraphPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private pending: ToPage[] = [];
  private baseDir = '';
  private lastStop: StopInfo | undefined;
  /// Counts stops and resumes, so an answer to an older stop is recognised as stale.
  private generation = 0;
  /// Sessions whose adapter answered `tensorlens/graph` with "unknown request".
  private readonly withoutLiveGraph = new WeakSet<vscode.DebugSession>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly tlensPath: () => string,
    private readonly abstractGraphs: () => boolean,
    private readonly run: (tlens: string, args: string[], cwd?: string) => Promise<CliResult> = runTlens,
  ) {}

  /// Shows the graph of `program` (opening or revealing the panel): the running graph when a
  /// tensorlens session debugging that program can describe it, else `tlens graph`'s.
  async show(program: string, session?: vscode.DebugSession): Promise<void> {
    this.baseDir = path.dirname(program);
    this.ensurePanel(path.basename(program));
    if (session?.type === kDebugType && session.configuration.program === program) {
      if (await this.showLive(session, this.lastStop)) return;
    }
    const abstract = this.abstractGraphs();
    try {
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `tlens graph ${path.basename(program)}` },
        () => this.run(this.tlensPath(), graphArgs(program, abstract), this.baseDir),
      );
      let graph: unknown;
      try {
        graph = JSON.parse(r.stdout);
      } catch {
        throw new Error(`tlens graph printed no graph (exit ${r.code}): ${r.stderr.trim().slice(0, 500)}`);
      }
      this.send({
        type: 'graph',
        graph,
        title: path.basename(program) + (abstract ? ' (not run)' : ''),
        stoppedAt: this.lastStop?.node,
        numerics: this.lastStop?.node && this.lastStop.numerics ? { [this.lastStop.node]: this.lastStop.numerics } : {},
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.send({ type: 'error', message });
      void vscode.window.showErrorMessage(`tensorlens: ${message}`);
    }
  }

  /// A tensorlens debug session stopped. Updates an open panel (the running graph when the
  /// debugger can describe it, else only the highlight); never opens one by itself.
  async onStop(session: vscode.DebugSession, stop: StopInfo): Promise<void> {
    this.lastStop = stop;
    const generation = ++this.generation;
    if (!this.panel) return;
    if (await this.showLive(session, stop, generation)) return;
    if (generation !== this.generation) return; // a later stop or a resume came meanwhile
    this.send({ type: 'stopped', node: stop.node, numerics: stop.numerics });
  }

  /// A debugger that can describe the running graph answers the custom request
  /// `tensorlens/graph` with `tlens graph --format json`'s object plus what ran, the NaN/Inf marks
  /// and where it stopped (see readLiveGraph); one that cannot answers with an error, and the
  /// caller keeps the graph `tlens graph` built. An answer that arrives after a later stop or a
  /// resume is dropped, so the panel never shows a stale stop.
  private async showLive(session: vscode.DebugSession, stop: StopInfo | undefined, generation = this.generation): Promise<boolean> {
    if (this.withoutLiveGraph.has(session)) return false;
    let body: unknown;
    try {
      body = await session.customRequest('tensorlens/graph', {});
    } catch (e) {
      // An adapter without the request says so once; it is not asked again at every stop.
      if (/unknown request/i.test(e instanceof Error ? e.message : String(e))) this.withoutLiveGraph.add(session);
      return false;
    }
    const live = readLiveGraph(body, stop);
    if (!live) return false;
    if (generation !== this.generation) return true;
    this.send({
      type: 'graph',
      graph: live.graph,
      title: `${session.name} (live)`,
      stoppedAt: live.stoppedAt,
      stoppedGraph: live.stoppedGraph,
      numerics: live.numerics,
      live: true,
    });
    return true;
  }

  /// The program runs again (or ended): the last stop is no longer where it is.
  onResume(): void {
    ++this.generation;
    if (!this.lastStop) return;
    this.lastStop = undefined;
    this.send({ type: 'stopped' });
  }

  private ensurePanel(title: string): void {
    if (this.panel) {
      this.panel.title = `Graph: ${title}`;
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      return;
    }
    const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    const panel = vscode.window.createWebviewPanel('tensorlens.graph', `Graph: ${title}`, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
    }, { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [media] });
    panel.webview.html = graphPageHtml({
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'graphView.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'graphView.css')).toString(),
      cspSource: panel.webview.cspSource,
      nonce: makeNonce(),
    });
    panel.webview.onDidReceiveMessage((m: FromPage) => this.onMessage(m));
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
      this.pending = [];
    });
    this.panel = panel;
  }

  private onMessage(m: FromPage): void {
    if (m.type === 'ready') {
      this.ready = true;
      for (const p of this.pending) void this.panel?.webview.postMessage(p);
      this.pending = [];
    } else if (m.type === 'reveal' && typeof m.file === 'string') {
      void this.reveal(m);
    }
  }

  private async reveal(m: { file: string; line: number; column?: number }): Promise<void> {
    const t = revealTarget(m, this.baseDir);
    const pos = new vscode.Position(t.line, t.character);
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(t.file));
      await vscode.window.showTextDocument(doc, {
        viewColumn: vscode.ViewColumn.One,
        selection: new vscode.Range(pos, pos),
        preserveFocus: false,
      });
    } catch (e) {
      void vscode.window.showWarningMessage(`tensorlens: cannot open ${t.file}: ${String(e)}`);
    }
  }

  private send(m: ToPage): void {
    if (!this.panel) return;
    if (this.ready) void this.panel.webview.postMessage(m);
    else this.pending.push(m);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
