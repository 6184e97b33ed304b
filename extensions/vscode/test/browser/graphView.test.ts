/// <reference lib="dom" />
// The graph view in a real browser: Debian's Chromium, headless, driven by playwright-core. The
// page is the one the extension shows (graphPageHtml + dist/media), with acquireVsCodeApi
// stubbed to record what the page posts. A screenshot goes to test-artifacts/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

import { Browser, chromium, Page } from 'playwright-core';

import { graphPageHtml, makeNonce } from '../../src/graphHtml';

const root = path.resolve(__dirname, '../../..');
const artifacts = path.join(root, 'test-artifacts');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const fixture = JSON.parse(readFileSync(path.join(root, 'test/fixtures/tfdbg_nan.graph.json'), 'utf8'));
const skip = existsSync(chromiumPath) ? false : `no Chromium at ${chromiumPath} (apt-get install chromium)`;

type Posted = { type: string; file?: string; line?: number; column?: number };

describe('graph view in headless Chromium', { skip }, () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  const posted = () => page.evaluate(() => (window as unknown as { __posted: Posted[] }).__posted);
  const send = (m: unknown) => page.evaluate((msg) => window.postMessage(msg, '*'), m);
  const visibleNames = () =>
    page.$$eval('#canvas .node', (els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-name')}`));

  before(async () => {
    mkdirSync(artifacts, { recursive: true });
    const html = graphPageHtml({
      scriptUri: pathToFileURL(path.join(root, 'dist/media/graphView.js')).href,
      styleUri: pathToFileURL(path.join(root, 'dist/media/graphView.css')).href,
      cspSource: 'file:',
      nonce: makeNonce(),
    });
    const pagePath = path.join(artifacts, 'graph-view.html');
    writeFileSync(pagePath, html);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __posted: unknown[]; acquireVsCodeApi: unknown };
      w.__posted = [];
      w.acquireVsCodeApi = () => ({
        postMessage: (m: unknown) => w.__posted.push(m),
        setState: () => undefined,
        getState: () => undefined,
      });
    });
    await page.goto(pathToFileURL(pagePath).href);
    await page.waitForFunction(() =>
      (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'),
    );
  });

  after(async () => {
    await browser?.close();
  });

  it('says so when the program built no graph', async () => {
    await send({ type: 'graph', graph: { graphs: [] }, title: 'empty.py' });
    assert.equal(await page.textContent('#status'), 'The program built no graph.');
    assert.equal((await visibleNames()).length, 0);
  });

  it('renders the graph with large name scopes collapsed and the stopped node highlighted', async () => {
    await send({
      type: 'graph',
      graph: fixture,
      title: 'tfdbg_nan.py',
      stoppedAt: 'cross_entropy/Log',
      numerics: { 'cross_entropy/Log': 'inf' },
    });
    await page.waitForSelector('#canvas .node');
    const names = await visibleNames();
    // gradients/ (33 nodes), hidden/ and output/ (28 each) and Adam/ (12) start collapsed;
    // cross_entropy/ (4) stays open.
    for (const s of ['scope:gradients', 'scope:hidden', 'scope:output', 'scope:Adam']) assert.ok(names.includes(s), `${s} in ${names.join(' ')}`);
    for (const n of ['node:softmax', 'node:cross_entropy/Log', 'node:cross_entropy/total/Mean', 'node:x-input', 'node:Adam'])
      assert.ok(names.includes(n), `${n} in ${names.join(' ')}`);
    assert.ok(!names.some((n) => n.startsWith('node:gradients/')), 'no node of a collapsed scope is drawn');
    assert.equal(await page.locator('#canvas .cluster[data-scope="cross_entropy"]').count(), 1);
    assert.equal(await page.locator('#canvas .cluster[data-scope="cross_entropy/total"]').count(), 0, 'one node: no group');
    assert.equal(await page.locator('#canvas .cluster[data-scope="ArgMax"]').count(), 0, 'no group around one node');

    const stopped = page.locator('#canvas .node.stopped');
    assert.equal(await stopped.count(), 1);
    assert.equal(await stopped.getAttribute('data-name'), 'cross_entropy/Log');
    assert.match((await stopped.getAttribute('class')) ?? '', /numerics-inf/);
    assert.equal(await stopped.locator('.badge').textContent(), 'Inf');
    assert.equal(await page.locator('#canvas .node.device-cpu').count(), names.length, 'every node is on the CPU');
    assert.match((await page.textContent('#status')) ?? '', /121 nodes \(\d+ shown\), 1 with NaN\/Inf, stopped at cross_entropy\/Log/);
  });

  it('labels edges with the producer output type', async () => {
    const labels = await page.$$eval('#canvas .edge-label', (els) => els.map((e) => e.textContent));
    assert.ok(labels.includes('float32[batch, 10]'), `labels: ${labels.join(' ')}`);
    assert.ok(labels.includes('float32[batch, 784]'), 'x-input into the collapsed hidden/ scope');
    const edges = await page.$$eval('#canvas .edge', (els) => els.map((e) => `${e.getAttribute('data-from')}>${e.getAttribute('data-to')}`));
    assert.ok(edges.includes('node:softmax>node:cross_entropy/Log'));
    assert.ok(edges.includes('node:x-input>scope:hidden'));
    assert.equal(new Set(edges).size, edges.length, 'parallel edges are merged');
    const control = await page.$$eval('#canvas .edge.control', (els) =>
      els.map((e) => `${e.getAttribute('data-from')}>${e.getAttribute('data-to')}`),
    );
    // Adam (NoOp) waits for the six updates inside the collapsed Adam/ scope: one dashed edge.
    // init waits for every variable's Assign.
    assert.deepEqual(control.sort(), [
      'node:beta1_power/Assign>node:init',
      'node:beta2_power/Assign>node:init',
      'scope:Adam>node:Adam',
      'scope:hidden>node:init',
      'scope:output>node:init',
    ]);
  });

  it('lays nodes out without overlaps', async () => {
    const boxes = await page.$$eval('#canvas .node .box', (els) => els.map((e) => e.getBoundingClientRect().toJSON()));
    for (let i = 0; i < boxes.length; ++i)
      for (let j = i + 1; j < boxes.length; ++j) {
        const a = boxes[i];
        const b = boxes[j];
        const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
        assert.ok(!overlap, `boxes ${i} and ${j} overlap`);
      }
    await page.click('#fit');
    await page.screenshot({ path: path.join(artifacts, 'graph-view.png') });
  });

  it('posts a reveal message with the source location when a node is clicked', async () => {
    await page.locator('#canvas .node[data-name="cross_entropy/Log"]').click();
    const reveal = (await posted()).filter((m) => m.type === 'reveal');
    assert.deepEqual(reveal, [{ type: 'reveal', file: 'examples/tfdbg_nan.py', line: 45, column: 19 }]);
    assert.equal(await page.locator('#details').isVisible(), true);
    assert.match((await page.textContent('#details')) ?? '', /cross_entropy\/Log \(Log\).*output 0float32\[batch, 10\]/);
  });

  it('expands a collapsed scope on click and collapses it from its group label', async () => {
    await page.locator('#canvas .node[data-kind="scope"][data-name="hidden"]').click();
    let names = await visibleNames();
    assert.ok(names.includes('node:hidden/MatMul'));
    assert.ok(names.includes('node:hidden/truncated_normal/Mul'), 'its small inner scopes open too');
    assert.equal(await page.locator('#canvas .cluster[data-scope="hidden"]').count(), 1);
    await page.locator('#canvas .cluster[data-scope="hidden"] > .cluster-label').click();
    names = await visibleNames();
    assert.ok(names.includes('scope:hidden') && !names.includes('node:hidden/MatMul'));
  });

  it('moves the highlight when the debugger stops at another node, opening its scopes', async () => {
    await send({ type: 'stopped', node: 'gradients/softmax_grad/Mul_1' });
    const stopped = page.locator('#canvas .node.stopped');
    assert.equal(await stopped.count(), 1);
    assert.equal(await stopped.getAttribute('data-name'), 'gradients/softmax_grad/Mul_1');
    assert.match((await page.textContent('#status')) ?? '', /stopped at gradients\/softmax_grad\/Mul_1/);
    await page.screenshot({ path: path.join(artifacts, 'graph-view-stopped-in-gradients.png') });
    await send({ type: 'stopped' });
    assert.equal(await page.locator('#canvas .node.stopped').count(), 0, 'running again clears the highlight');
    assert.doesNotMatch((await page.textContent('#status')) ?? '', /stopped at/);
  });

  // A `tensorlens/graph` answer at the nan_inf stop of examples/tfdbg_nan.py: the nodes that ran
  // in this training step up to cross_entropy/Log (its inputs, transitively), Log marked Inf.
  const liveAnswer = (stoppedAt: string, extraRan: string[], numerics: Record<string, 'nan' | 'inf'>) => {
    type N = { name: string; inputs: string[] };
    const nodes = fixture.graphs[0].nodes as N[];
    const byName = new Map(nodes.map((n) => [n.name, n]));
    const ran = new Set<string>(extraRan);
    const visit = (name: string) => {
      if (ran.has(name) && name !== stoppedAt && !extraRan.includes(name)) return;
      ran.add(name);
      for (const i of byName.get(name)?.inputs ?? []) visit(i.replace(/^\^/, '').replace(/:\d+$/, ''));
    };
    visit('cross_entropy/Log');
    return {
      graphs: [{ nodes: nodes.map((n) => ({ ...n, ...(ran.has(n.name) ? { ran: true } : {}), ...(numerics[n.name] ? { numerics: numerics[n.name] } : {}) })) }],
      stopped: { graph: 0, node: stoppedAt },
    };
  };
  const classOf = async (name: string) => (await page.locator(`#canvas .node[data-name="${name}"]`).getAttribute('class')) ?? '';

  it('marks what ran, the NaN/Inf nodes and the stopped node of a live graph from the debugger', async () => {
    await send({ type: 'graph', graph: fixture, title: 'tfdbg_nan.py' });
    assert.equal(await page.locator('#canvas .node.not-run, #canvas .node.ran').count(), 0, 'tlens graph has no run information');
    // The same graph again keeps the scopes the previous test opened; start from closed ones.
    await page.click('#collapse-all');
    assert.ok((await visibleNames()).includes('scope:gradients'));
    assert.equal(await page.locator('#legend .live-only').isVisible(), false);

    const live = liveAnswer('cross_entropy/Log', [], { 'cross_entropy/Log': 'inf' });
    await send({ type: 'graph', graph: live, title: 'tfdbg_nan.py (live)', stoppedAt: 'cross_entropy/Log', stoppedGraph: 0, numerics: {}, live: true });
    const log = await classOf('cross_entropy/Log');
    for (const c of ['ran', 'numerics-inf', 'stopped']) assert.match(log, new RegExp(`\\b${c}\\b`), log);
    assert.equal(await page.locator('#canvas .node[data-name="cross_entropy/Log"] .badge').textContent(), 'Inf');
    assert.match(await classOf('softmax'), /\bran\b/);
    assert.match(await classOf('cross_entropy/Mul'), /\bnot-run\b/, 'downstream of Log nothing ran');
    assert.match(await classOf('hidden'), /\bran\b/, 'a collapsed scope ran when any of its nodes did');
    assert.match(await classOf('gradients'), /\bnot-run\b/);
    assert.ok((await page.locator('#canvas .node.not-run').count()) > 5);
    assert.equal(await page.locator('#legend .live-only').isVisible(), true);
    const ranCount = live.graphs[0].nodes.filter((n: { ran?: boolean }) => n.ran).length;
    assert.match((await page.textContent('#status')) ?? '', new RegExp(`121 nodes \\(\\d+ shown\\), ${ranCount} ran, 1 with NaN/Inf, stopped at cross_entropy/Log`));
    assert.match((await page.locator('#canvas .node[data-name="cross_entropy/Mul"] > title').textContent()) ?? '', /did not run in this run/);
    // The details of the node selected before the refresh show its new marks.
    assert.match((await page.textContent('#details')) ?? '', /cross_entropy\/Log \(Log\).*numericsoutput holds Inf.*this runran/);
    await page.click('#fit');
    await page.screenshot({ path: path.join(artifacts, 'graph-view-live-nan-inf.png') });
  });

  it('a refresh at the next stop keeps the opened scopes and marks every node that held NaN/Inf', async () => {
    await page.locator('#canvas .node[data-kind="scope"][data-name="hidden"]').click();
    assert.ok((await visibleNames()).includes('node:hidden/MatMul'));
    // The next stop, further down the loss; one node inside the collapsed gradients/ scope is
    // marked too, to see a closed scope carry its members' mark.
    const live = liveAnswer('cross_entropy/Neg', ['cross_entropy/Mul', 'cross_entropy/Neg', 'gradients/OnesLike'], {
      'cross_entropy/Log': 'inf',
      'cross_entropy/Mul': 'nan',
      'cross_entropy/Neg': 'nan',
      'gradients/OnesLike': 'nan',
    });
    await send({ type: 'graph', graph: live, title: 'tfdbg_nan.py (live)', stoppedAt: 'cross_entropy/Neg', stoppedGraph: 0, numerics: {}, live: true });
    const names = await visibleNames();
    assert.ok(names.includes('node:hidden/MatMul'), 'hidden/ stays open');
    assert.ok(names.includes('scope:gradients'), 'gradients/ stays closed');
    assert.equal(await page.locator('#canvas .node.stopped').getAttribute('data-name'), 'cross_entropy/Neg');
    assert.match(await classOf('cross_entropy/Log'), /numerics-inf/);
    assert.match(await classOf('cross_entropy/Mul'), /numerics-nan/);
    assert.match(await classOf('cross_entropy/Mul'), /\bran\b/);
    // A collapsed scope holding a NaN node carries the mark.
    assert.match(await classOf('gradients'), /numerics-nan/);
    assert.equal(await page.locator('#canvas .node[data-name="gradients"] .badge').textContent(), 'NaN');
    assert.match((await page.textContent('#status')) ?? '', /4 with NaN\/Inf, stopped at cross_entropy\/Neg/);
    await page.locator('#canvas .node[data-name="cross_entropy/Mul"]').click();
    assert.match((await page.textContent('#details')) ?? '', /numericsoutput holds NaN.*this runran/);
    await page.screenshot({ path: path.join(artifacts, 'graph-view-live-refresh.png') });
  });

  it('colours GPU nodes and offers a picker when the program built several graphs', async () => {
    const gpu = (name: string, op: string, inputs: string[] = []) => ({
      name, op, device: '/gpu:0', outputs: ['float32[8, 8]'], inputs, controlInputs: [],
    });
    await send({
      type: 'graph',
      title: 'two graphs',
      graph: { graphs: [{ nodes: [gpu('a', 'Const')] }, { nodes: [gpu('b', 'Const'), gpu('c', 'MatMul', ['b:0', 'b:0'])] }] },
    });
    assert.equal(await page.locator('#graph-picker').isVisible(), true);
    assert.deepEqual(await visibleNames(), ['node:b', 'node:c'], 'the largest graph is shown first');
    assert.equal(await page.locator('#canvas .node.device-gpu').count(), 2);
    await page.selectOption('#graph-picker', '0');
    assert.deepEqual(await visibleNames(), ['node:a']);
  });

  it('keeps a 2,000-node graph responsive: collapsed at first, no expansion past the drawing limit', async () => {
    const nodes = [];
    let prev: string | undefined;
    for (let s = 0; s < 40; ++s)
      for (let i = 0; i < 50; ++i) {
        const name = `layer${s}/op${i}`;
        nodes.push({ name, op: 'MatMul', device: '/cpu:0', outputs: ['float32[?, 64]'], inputs: prev ? [`${prev}:0`] : [], controlInputs: [] });
        prev = name;
      }
    const ms = await page.evaluate(async (graph) => {
      const t0 = performance.now();
      window.postMessage({ type: 'graph', graph, title: 'big' }, '*');
      await new Promise((r) => setTimeout(r, 0));
      return performance.now() - t0;
    }, { graphs: [{ nodes }] });
    assert.equal((await visibleNames()).length, 40, 'one box per scope');
    assert.ok(ms < 3000, `first render took ${ms.toFixed(0)} ms`);
    await page.click('#expand-all');
    assert.match((await page.textContent('#status')) ?? '', /Not expanded: that would draw 2000 boxes/);
    assert.equal((await visibleNames()).length, 40, 'the view is unchanged');
    await page.locator('#canvas .node[data-name="layer7"]').click();
    assert.equal((await visibleNames()).length, 39 + 50, 'one scope opens');
  });

  it('raised no page errors and no CSP violations', () => {
    assert.deepEqual(problems, []);
  });
});
