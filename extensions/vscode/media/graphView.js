// The graph view's page script. It renders `tlens graph --format json` output as an SVG laid out
// by dagre: one box per node (coloured by device, red when its output held NaN/Inf, outlined
// when the debugger stopped there, faded when a live graph from the debugger says it did not run
// in this run), name scopes as collapsible groups, edges labelled with the producer's output
// type. Clicking a node posts {type: 'reveal', file, line, column} to the
// extension. The extension talks to the page only through messages (see the README in
// extensions/vscode for the protocol), so the page also runs in a plain browser for its test.
//
// Plain JavaScript, bundled by esbuild into one IIFE (dist/media/graphView.js) with dagre.
import { Graph, layout } from '@dagrejs/dagre';

const SVG_NS = 'http://www.w3.org/2000/svg';
/// Scopes with more nodes than this start collapsed (unless the stopped node is inside).
const kAutoCollapse = 10;
/// More visible boxes than this make dagre slow (about 3 s for 1,000) or overflow its stack, so
/// expanding past it is refused with a message.
const kMaxVisible = 600;
const kNodeHeight = 38;
const kCharWidth = 7.2;

// --- model ------------------------------------------------------------------------------------

/// Splits "fc1/MatMul:0" into the producer's name and output index.
export function parseInput(input) {
  const ctl = input.startsWith('^');
  const s = ctl ? input.slice(1) : input;
  const m = /^(.*):(\d+)$/.exec(s);
  return m ? { node: m[1], index: Number(m[2]), control: ctl } : { node: s, index: 0, control: ctl };
}

/// "a/b/MatMul" -> ["a", "a/b"]: the scopes a node sits in, outermost first.
export function scopesOf(name) {
  const parts = name.split('/');
  const out = [];
  for (let i = 1; i < parts.length; ++i) out.push(parts.slice(0, i).join('/'));
  return out;
}

export function deviceClass(device) {
  const d = (device || '').toLowerCase();
  if (d.includes('gpu')) return 'device-gpu';
  if (d.includes('cpu')) return 'device-cpu';
  return 'device-other';
}

/// Builds the per-graph model: nodes by name, each scope's nodes (all descendants), and what a
/// live graph from the debugger (`tensorlens/graph`) adds per node: `ran: true` for the nodes
/// that ran in the current run, `numerics: 'nan' | 'inf'` for those whose output held NaN/Inf.
export function buildModel(graphJson) {
  const nodes = new Map();
  const scopeMembers = new Map();
  const ran = new Set();
  const numerics = new Map();
  for (const n of graphJson.nodes || []) {
    nodes.set(n.name, n);
    if (n.ran === true) ran.add(n.name);
    if (n.numerics === 'nan' || n.numerics === 'inf') numerics.set(n.name, n.numerics);
    for (const s of scopesOf(n.name)) {
      if (!scopeMembers.has(s)) scopeMembers.set(s, []);
      scopeMembers.get(s).push(n.name);
    }
  }
  // A "scope" that is also a node's full name (TF names a node "x" and its children "x/...",
  // e.g. a Variable and its "x/read") stays a scope; the node is drawn inside its parent.
  return { nodes, scopeMembers, ran, numerics };
}

/// A name for the structure of a graph (its node names in order): a live refresh of the same
/// graph keeps the user's collapsed scopes, zoom and pan.
export function structureKey(graphJson) {
  return (graphJson.nodes || []).map((n) => n.name).join('\n');
}

// --- state ------------------------------------------------------------------------------------

const state = {
  graphs: [], // raw graphs from the message
  index: 0, // which graph is shown
  model: null,
  collapsed: new Set(),
  stoppedAt: null, // node name
  stoppedGraph: null, // index of the graph stoppedAt is in, when the debugger said
  numerics: {}, // node name -> 'nan' | 'inf', from the extension (the stopped event's mark)
  live: false, // the graph came from the debugger: nodes without ran: true did not run
  selected: null,
  title: '',
  view: { x: 0, y: 0, k: 1 },
  size: { width: 0, height: 0 },
};

const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage() {}, setState() {}, getState() {} };

function post(message) {
  vscode.postMessage(message);
}

function defaultCollapsed(model, keepOpen) {
  const c = new Set();
  for (const [scope, members] of model.scopeMembers) {
    if (members.length > kAutoCollapse && !(keepOpen && keepOpen.startsWith(scope + '/'))) c.add(scope);
  }
  return c;
}

function pickGraph(graphs, stoppedAt, stoppedGraph) {
  if (Number.isInteger(stoppedGraph) && stoppedGraph >= 0 && stoppedGraph < graphs.length) return stoppedGraph;
  if (stoppedAt) {
    const i = graphs.findIndex((g) => (g.nodes || []).some((n) => n.name === stoppedAt));
    if (i >= 0) return i;
  }
  let best = 0;
  graphs.forEach((g, i) => {
    if ((g.nodes || []).length > (graphs[best].nodes || []).length) best = i;
  });
  return best;
}

/// The visible item standing for a node: the outermost collapsed scope holding it, or itself.
function representative(name, collapsed = state.collapsed) {
  for (const s of scopesOf(name)) if (collapsed.has(s)) return 'scope:' + s;
  return 'node:' + name;
}

function visibleCount(collapsed) {
  const reps = new Set();
  for (const name of state.model.nodes.keys()) reps.add(representative(name, collapsed));
  return reps.size;
}

/// Switches to another collapse state and redraws, unless it would show too many boxes.
function setCollapsed(collapsed) {
  const n = visibleCount(collapsed);
  if (n > kMaxVisible) {
    document.getElementById('status').textContent =
      `Not expanded: that would draw ${n} boxes (at most ${kMaxVisible}). Expand scopes one at a time.`;
    return false;
  }
  state.collapsed = collapsed;
  render();
  return true;
}

// --- layout -----------------------------------------------------------------------------------

function textWidth(s) {
  return s.length * kCharWidth;
}

function shortName(name) {
  const i = name.lastIndexOf('/');
  return i < 0 ? name : name.slice(i + 1);
}

/// Lays out what is visible under the current collapse state; returns dagre's graph.
function computeLayout() {
  const { nodes, scopeMembers } = state.model;
  const g = new Graph({ compound: true, multigraph: false });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 46, edgesep: 12, marginx: 24, marginy: 24 });
  g.setDefaultEdgeLabel(() => ({}));

  // How many visible items each expanded scope holds: a group around a single item is noise
  // (Adam/update_x/Variable/ApplyAdam), so only scopes holding two or more become clusters.
  const itemsPerScope = new Map();
  const seen = new Set();
  for (const n of nodes.values()) {
    const rep = representative(n.name);
    if (seen.has(rep)) continue;
    seen.add(rep);
    const scopes = rep.startsWith('scope:') ? scopesOf(rep.slice(6)) : scopesOf(n.name);
    for (const s of scopes) itemsPerScope.set(s, (itemsPerScope.get(s) || 0) + 1);
  }

  const usedClusters = new Set();
  const addToClusters = (id, allScopes) => {
    // Parent is the innermost expanded scope; every expanded ancestor becomes a cluster.
    const scopes = allScopes.filter((s) => itemsPerScope.get(s) >= 2);
    let child = id;
    for (let i = scopes.length - 1; i >= 0; --i) {
      const cid = 'cluster:' + scopes[i];
      if (!usedClusters.has(cid)) {
        usedClusters.add(cid);
        g.setNode(cid, { kind: 'cluster', scope: scopes[i], label: scopes[i] });
      }
      if (g.parent(child) === undefined) g.setParent(child, cid);
      child = cid;
    }
  };

  for (const n of nodes.values()) {
    const rep = representative(n.name);
    if (g.hasNode(rep)) continue;
    if (rep.startsWith('scope:')) {
      const scope = rep.slice(6);
      const members = scopeMembers.get(scope);
      const label = shortName(scope) + '/';
      const sub = members.length + ' nodes';
      g.setNode(rep, {
        kind: 'scope',
        scope,
        label,
        sub,
        width: Math.max(textWidth(label), textWidth(sub)) + 28,
        height: kNodeHeight,
      });
      addToClusters(rep, scopesOf(scope));
    } else {
      const label = shortName(n.name);
      g.setNode(rep, {
        kind: 'node',
        name: n.name,
        label,
        sub: n.op,
        width: Math.max(textWidth(label), textWidth(n.op || '')) + 20,
        height: kNodeHeight,
      });
      addToClusters(rep, scopesOf(n.name));
    }
  }

  for (const n of nodes.values()) {
    const to = representative(n.name);
    const inputs = (n.inputs || []).map((s) => ({ ...parseInput(s), control: false }));
    for (const c of n.controlInputs || []) inputs.push({ node: c, index: 0, control: true });
    for (const inp of inputs) {
      const producer = nodes.get(inp.node);
      if (!producer) continue;
      const from = representative(producer.name);
      if (from === to) continue;
      const type = inp.control ? '' : (producer.outputs || [])[inp.index] || '';
      const existing = g.edge(from, to);
      if (existing) {
        if (type && !existing.types.includes(type)) existing.types.push(type);
        existing.control = existing.control && inp.control;
        continue;
      }
      g.setEdge(from, to, { types: type ? [type] : [], control: inp.control });
    }
  }
  for (const e of g.edges()) {
    const lbl = g.edge(e);
    lbl.label = lbl.types.length === 0 ? '' : lbl.types[0] + (lbl.types.length > 1 ? ` +${lbl.types.length - 1}` : '');
    lbl.width = lbl.label ? textWidth(lbl.label) * 0.85 + 6 : 0;
    lbl.height = lbl.label ? 14 : 0;
    lbl.labelpos = 'c';
  }
  layout(g);
  return g;
}

// --- rendering --------------------------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/// 'nan' | 'inf' | null: the node's own mark in the graph, else the extension's.
function numericsOf(name) {
  return state.model.numerics.get(name) || state.numerics[name] || null;
}

/// Whether the run information says the node ran: true/false, or null when there is none.
function ranOf(name) {
  return state.live ? state.model.ran.has(name) : null;
}

function numericsOfScope(scope) {
  let worst = null;
  for (const m of state.model.scopeMembers.get(scope) || []) {
    const v = numericsOf(m);
    if (v === 'nan') return 'nan';
    if (v === 'inf') worst = 'inf';
  }
  return worst;
}

function tooltipFor(n) {
  const lines = [`${n.name} (${n.op}) on ${n.device || 'no device'}`];
  if (n.placementNote) lines.push(`  placement: ${n.placementNote}`);
  (n.outputs || []).forEach((t, i) => lines.push(`  output ${i}: ${t}`));
  if (n.source) lines.push(`  ${n.source.file}:${n.source.line}:${n.source.column}`);
  if (n.shapeError) lines.push(`  shape error: ${n.shapeError}`);
  if (numericsOf(n.name)) lines.push(`  output holds ${numericsOf(n.name) === 'nan' ? 'NaN' : 'Inf'}`);
  if (ranOf(n.name) !== null) lines.push(ranOf(n.name) ? '  ran in this run' : '  did not run in this run');
  return lines.join('\n');
}

function render() {
  const svg = document.getElementById('canvas');
  svg.replaceChildren();
  const status = document.getElementById('status');
  if (!state.model || state.model.nodes.size === 0) {
    status.textContent = state.graphs.length === 0 ? 'The program built no graph.' : 'This graph is empty.';
    return;
  }
  let g;
  try {
    g = computeLayout();
  } catch (e) {
    status.textContent = `Could not lay out this graph: ${e && e.message ? e.message : e}`;
    return;
  }
  const defs = el('defs', {}, svg);
  const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }, marker);
  const viewport = el('g', { id: 'viewport' }, svg);

  // Clusters first (drawn below), outermost first so inner ones are on top.
  const clusters = g.nodes().filter((id) => g.node(id).kind === 'cluster');
  clusters.sort((a, b) => a.split('/').length - b.split('/').length);
  for (const id of clusters) {
    const c = g.node(id);
    const grp = el('g', { class: 'cluster', 'data-scope': c.scope }, viewport);
    el('rect', { x: c.x - c.width / 2, y: c.y - c.height / 2, width: c.width, height: c.height, rx: 6 }, grp);
    const head = el('text', { x: c.x - c.width / 2 + 6, y: c.y - c.height / 2 + 12, class: 'cluster-label' }, grp);
    head.textContent = '▾ ' + shortName(c.scope);
    el('title', {}, head).textContent = `${c.scope}: click to collapse`;
    head.addEventListener('click', (ev) => {
      ev.stopPropagation();
      setCollapsed(new Set([...state.collapsed, c.scope]));
    });
  }

  const edgeLayer = el('g', { class: 'edges' }, viewport);
  for (const e of g.edges()) {
    const lbl = g.edge(e);
    const pts = lbl.points || [];
    if (pts.length === 0) continue;
    const d = 'M ' + pts.map((p) => `${p.x} ${p.y}`).join(' L ');
    el('path', { d, class: lbl.control ? 'edge control' : 'edge', 'marker-end': 'url(#arrow)', 'data-from': e.v, 'data-to': e.w }, edgeLayer);
    if (lbl.label) {
      const t = el('text', { x: lbl.x, y: lbl.y + 4, class: 'edge-label', 'text-anchor': 'middle' }, edgeLayer);
      t.textContent = lbl.label;
      if (lbl.types.length > 1) el('title', {}, t).textContent = lbl.types.join('\n');
    }
  }

  const nodeLayer = el('g', { class: 'nodes' }, viewport);
  let stoppedBox = null;
  for (const id of g.nodes()) {
    const v = g.node(id);
    if (v.kind === 'cluster') continue;
    const classes = ['node'];
    let numerics = null;
    let ran = null;
    let stopped = false;
    let shapeError = false;
    let raw = null;
    if (v.kind === 'node') {
      raw = state.model.nodes.get(v.name);
      classes.push(deviceClass(raw.device));
      numerics = numericsOf(v.name);
      ran = ranOf(v.name);
      stopped = state.stoppedAt === v.name;
      shapeError = !!raw.shapeError;
      if (state.selected === v.name) classes.push('selected');
    } else {
      classes.push('scope-node');
      const members = state.model.scopeMembers.get(v.scope) || [];
      const devices = new Set(members.map((m) => deviceClass(state.model.nodes.get(m).device)));
      classes.push(devices.size === 1 ? [...devices][0] : 'device-mixed');
      numerics = numericsOfScope(v.scope);
      ran = state.live ? members.some((m) => state.model.ran.has(m)) : null;
      stopped = !!state.stoppedAt && state.stoppedAt.startsWith(v.scope + '/');
      shapeError = members.some((m) => state.model.nodes.get(m).shapeError);
    }
    if (numerics) classes.push('numerics-' + numerics);
    if (ran !== null) classes.push(ran ? 'ran' : 'not-run');
    if (stopped) classes.push('stopped');
    if (shapeError) classes.push('shape-error');
    const grp = el('g', {
      class: classes.join(' '),
      'data-kind': v.kind,
      'data-name': v.kind === 'node' ? v.name : v.scope,
      transform: `translate(${v.x - v.width / 2}, ${v.y - v.height / 2})`,
      tabindex: 0,
    }, nodeLayer);
    if (v.kind === 'scope') el('rect', { x: 3, y: 3, width: v.width, height: v.height, rx: 5, class: 'stack' }, grp);
    el('rect', { x: 0, y: 0, width: v.width, height: v.height, rx: 5, class: 'box' }, grp);
    const t1 = el('text', { x: v.width / 2, y: 15, 'text-anchor': 'middle', class: 'label' }, grp);
    t1.textContent = v.label;
    const t2 = el('text', { x: v.width / 2, y: 30, 'text-anchor': 'middle', class: 'sub' }, grp);
    t2.textContent = v.sub || '';
    if (numerics) {
      const badge = el('text', { x: v.width - 4, y: -4, 'text-anchor': 'end', class: 'badge' }, grp);
      badge.textContent = numerics === 'nan' ? 'NaN' : 'Inf';
    }
    el('title', {}, grp).textContent = raw
      ? tooltipFor(raw)
      : `${v.scope}/ (${v.sub})${numerics ? `: holds ${numerics === 'nan' ? 'NaN' : 'Inf'}` : ''}: click to expand`;
    grp.addEventListener('click', (ev) => {
      ev.stopPropagation();
      if (v.kind === 'scope') {
        const next = new Set(state.collapsed);
        next.delete(v.scope);
        // Opening a scope keeps its big inner scopes closed.
        for (const [s, members] of state.model.scopeMembers) {
          if (s.startsWith(v.scope + '/') && members.length > kAutoCollapse) next.add(s);
        }
        setCollapsed(next);
      } else {
        select(raw);
      }
    });
    grp.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') grp.dispatchEvent(new MouseEvent('click'));
    });
    if (stopped) stoppedBox = v;
  }

  const gl = g.graph();
  state.size = { width: gl.width || 0, height: gl.height || 0 };
  applyView();
  const visible = g.nodes().filter((id) => g.node(id).kind !== 'cluster').length;
  const marked = [...state.model.nodes.keys()].filter((n) => numericsOf(n)).length;
  status.textContent =
    `${state.title ? state.title + ': ' : ''}graph ${state.index + 1} of ${state.graphs.length}, ` +
    `${state.model.nodes.size} nodes (${visible} shown)` +
    (state.live ? `, ${state.model.ran.size} ran` : '') +
    (marked ? `, ${marked} with NaN/Inf` : '') +
    (state.stoppedAt ? `, stopped at ${state.stoppedAt}` : '');
  return stoppedBox;
}

function select(n) {
  state.selected = n.name;
  document.querySelectorAll('.node.selected').forEach((e) => e.classList.remove('selected'));
  const e = document.querySelector(`.node[data-name="${CSS.escape(n.name)}"]`);
  if (e) e.classList.add('selected');
  showDetails(n);
  if (n.source && n.source.file) {
    post({ type: 'reveal', file: n.source.file, line: n.source.line, column: n.source.column || 1 });
  }
}

function showDetails(n) {
  const d = document.getElementById('details');
  d.replaceChildren();
  const h = document.createElement('div');
  h.className = 'details-title';
  h.textContent = `${n.name} (${n.op})`;
  d.appendChild(h);
  const rows = [['device', n.device || '—']];
  if (n.placementNote) rows.push(['placement', n.placementNote]);
  (n.outputs || []).forEach((t, i) => rows.push([`output ${i}`, t]));
  (n.inputs || []).forEach((t, i) => rows.push([`input ${i}`, t]));
  (n.controlInputs || []).forEach((t) => rows.push(['control', t]));
  if (n.source) rows.push(['source', `${n.source.file}:${n.source.line}:${n.source.column}`]);
  if (n.shapeError) rows.push(['shape error', n.shapeError]);
  if (numericsOf(n.name)) rows.push(['numerics', numericsOf(n.name) === 'nan' ? 'output holds NaN' : 'output holds Inf']);
  if (ranOf(n.name) !== null) rows.push(['this run', ranOf(n.name) ? 'ran' : 'did not run']);
  for (const [k, v] of rows) {
    const r = document.createElement('div');
    r.className = 'details-row';
    const kk = document.createElement('span');
    kk.className = 'k';
    kk.textContent = k;
    const vv = document.createElement('span');
    vv.className = 'v';
    vv.textContent = v;
    r.append(kk, vv);
    d.appendChild(r);
  }
  d.hidden = false;
}

// --- pan and zoom -----------------------------------------------------------------------------

function applyView() {
  const vp = document.getElementById('viewport');
  if (vp) vp.setAttribute('transform', `translate(${state.view.x}, ${state.view.y}) scale(${state.view.k})`);
}

function fit() {
  const svg = document.getElementById('canvas');
  const r = svg.getBoundingClientRect();
  if (!state.size.width || !r.width) return;
  const k = Math.min(1.5, Math.min(r.width / state.size.width, r.height / state.size.height) * 0.97);
  state.view = { k, x: (r.width - state.size.width * k) / 2, y: Math.max(0, (r.height - state.size.height * k) / 2) };
  applyView();
}

function centerOn(box) {
  const svg = document.getElementById('canvas');
  const r = svg.getBoundingClientRect();
  const k = Math.max(state.view.k, 0.8);
  state.view = { k, x: r.width / 2 - box.x * k, y: r.height / 2 - box.y * k };
  applyView();
}

function installPanZoom(svg) {
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const r = svg.getBoundingClientRect();
    const px = ev.clientX - r.left;
    const py = ev.clientY - r.top;
    const f = Math.exp(-ev.deltaY * 0.0015);
    const k = Math.min(4, Math.max(0.05, state.view.k * f));
    state.view.x = px - ((px - state.view.x) * k) / state.view.k;
    state.view.y = py - ((py - state.view.y) * k) / state.view.k;
    state.view.k = k;
    applyView();
  }, { passive: false });
  let drag = null;
  svg.addEventListener('pointerdown', (ev) => {
    if (ev.target.closest && ev.target.closest('.node, .cluster-label')) return;
    drag = { x: ev.clientX, y: ev.clientY, vx: state.view.x, vy: state.view.y };
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    state.view.x = drag.vx + ev.clientX - drag.x;
    state.view.y = drag.vy + ev.clientY - drag.y;
    applyView();
  });
  svg.addEventListener('pointerup', () => {
    drag = null;
  });
}

// --- messages from the extension --------------------------------------------------------------

function showGraph(index) {
  state.index = index;
  state.model = buildModel(state.graphs[index] || { nodes: [] });
  state.collapsed = defaultCollapsed(state.model, state.stoppedAt);
  state.selected = null;
  document.getElementById('details').hidden = true;
  const box = render();
  if (box) centerOn(box);
  else fit();
}

function fillGraphPicker() {
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById('graph-picker'));
  sel.replaceChildren();
  state.graphs.forEach((g, i) => {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = `graph ${i + 1} (${(g.nodes || []).length} nodes)`;
    sel.appendChild(o);
  });
  sel.value = String(state.index);
  sel.hidden = state.graphs.length < 2;
}

/// Whether the stopped node's box is out of sight (or nearly), so the view should move to it.
function offScreen(box) {
  const r = document.getElementById('canvas').getBoundingClientRect();
  const x = state.view.x + box.x * state.view.k;
  const y = state.view.y + box.y * state.view.k;
  return x < 40 || y < 40 || x > r.width - 40 || y > r.height - 40;
}

/// The same graph again with fresh run information (a live refresh at the next stop): keep
/// what the user opened, zoomed and panned; open the scopes around the stopped node.
function refreshGraph() {
  state.model = buildModel(state.graphs[state.index]);
  if (state.stoppedAt) for (const s of scopesOf(state.stoppedAt)) state.collapsed.delete(s);
  const selected = state.selected ? state.model.nodes.get(state.selected) : undefined;
  if (selected) showDetails(selected); // its marks may have changed
  else {
    state.selected = null;
    document.getElementById('details').hidden = true;
  }
  const box = render();
  if (box && offScreen(box)) centerOn(box);
}

export function handleMessage(m) {
  if (!m || typeof m !== 'object') return;
  if (m.type === 'graph') {
    const graphs = (m.graph && m.graph.graphs) || [];
    const before = state.model ? structureKey(state.graphs[state.index] || {}) : null;
    state.graphs = graphs;
    state.title = m.title || '';
    state.stoppedAt = m.stoppedAt || null;
    state.stoppedGraph = Number.isInteger(m.stoppedGraph) ? m.stoppedGraph : null;
    state.numerics = m.numerics || {};
    state.live = m.live === true;
    document.body.classList.toggle('live', state.live);
    const index = pickGraph(state.graphs, state.stoppedAt, state.stoppedGraph);
    const same = before !== null && index === state.index && structureKey(graphs[index] || {}) === before;
    state.index = index;
    fillGraphPicker();
    if (same) refreshGraph();
    else showGraph(state.index);
  } else if (m.type === 'stopped') {
    // {type: 'stopped'} without a node: the program runs again; the highlight goes.
    state.stoppedAt = m.node || null;
    if (m.node && m.numerics) state.numerics = { ...state.numerics, [m.node]: m.numerics };
    if (!state.model) return;
    if (m.node && !state.model.nodes.has(m.node)) {
      const i = pickGraph(state.graphs, m.node);
      if (i !== state.index && state.graphs[i].nodes.some((n) => n.name === m.node)) {
        state.index = i;
        fillGraphPicker();
        state.model = buildModel(state.graphs[i]);
        state.collapsed = defaultCollapsed(state.model, m.node);
      }
    }
    if (m.node) for (const s of scopesOf(m.node)) state.collapsed.delete(s);
    const box = render();
    if (box) centerOn(box);
  } else if (m.type === 'error') {
    document.getElementById('status').textContent = m.message;
  }
}

function init() {
  const svg = document.getElementById('canvas');
  installPanZoom(svg);
  document.getElementById('graph-picker').addEventListener('change', (ev) =>
    showGraph(Number(/** @type {HTMLSelectElement} */ (ev.target).value)),
  );
  document.getElementById('expand-all').addEventListener('click', () => {
    if (state.model && setCollapsed(new Set())) fit();
  });
  document.getElementById('collapse-all').addEventListener('click', () => {
    if (!state.model) return;
    setCollapsed(new Set([...state.model.scopeMembers.keys()].filter((s) => !s.includes('/'))));
    fit();
  });
  document.getElementById('fit').addEventListener('click', fit);
  window.addEventListener('message', (ev) => handleMessage(ev.data));
  post({ type: 'ready' });
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
}
