// The graph view's HTML shell. The extension fills in webview URIs; the browser test fills in
// file:// URLs, so both load exactly this page.

export interface GraphPageOptions {
  /// URL of the bundled page script (dist/media/graphView.js).
  scriptUri: string;
  /// URL of media/graphView.css (copied to dist/media).
  styleUri: string;
  /// The webview's cspSource (where styles may load from).
  cspSource: string;
  /// A fresh random value per page; only scripts carrying it run.
  nonce: string;
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function graphPageHtml(o: GraphPageOptions): string {
  const csp = [
    "default-src 'none'",
    `style-src ${o.cspSource}`,
    `img-src ${o.cspSource} data:`,
    `font-src ${o.cspSource}`,
    `script-src 'nonce-${o.nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${attr(o.styleUri)}">
<title>tensorlens graph</title>
</head>
<body>
<div id="toolbar">
  <select id="graph-picker" title="The program built more than one graph" hidden></select>
  <button id="fit" title="Fit the graph to the view">Fit</button>
  <button id="expand-all" title="Expand every name scope">Expand all</button>
  <button id="collapse-all" title="Collapse the top-level name scopes">Collapse all</button>
  <span id="legend">
    <span><span class="swatch device-cpu"></span>CPU</span>
    <span><span class="swatch device-gpu"></span>GPU</span>
    <span><span class="swatch numerics-nan"></span>NaN/Inf</span>
    <span><span class="swatch stopped"></span>stopped here</span>
    <span class="live-only" title="The debugger's graph: faded nodes did not run in this run"><span class="swatch not-run"></span>did not run</span>
  </span>
  <span id="status">Loading the graph…</span>
</div>
<div id="main">
  <svg id="canvas" role="img" aria-label="computation graph"></svg>
  <div id="details" hidden></div>
</div>
<script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>
`;
}

export function makeNonce(random: () => number = Math.random): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; ++i) s += chars.charAt(Math.floor(random() * chars.length));
  return s;
}
