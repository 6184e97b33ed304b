// The language server's targets (issue #5, issue #17), measured through a real LSP client (the one
// of tests/lsp/client) on one ~5,000-line file (bench/lsp_bench.sh runs it on each of the files of
// bench/lsp_files.py and bench/TfStyleFile.h):
//   first diagnostics after didOpen <= 150 ms, hover p99 <= 5 ms, one-line edit -> new
//   diagnostics <= 50 ms, peak server memory <= 100 MB.
// Times are wall clock at the client, from sending the message to receiving the answer, so they
// include JSON-RPC and the pipe, as an editor sees them. Usage:
//   node bench/lsp_bench.js FILE NAME -- COMMAND [ARGS...]   (one server; prints JSON on the last line)
'use strict';

const fs = require('fs');
const path = require('path');
const { LspClient, fileUri } = require('../tests/lsp/client/lspClient');

const sep = process.argv.indexOf('--');
const [file, name] = process.argv.slice(2, sep);
const command = process.argv.slice(sep + 1);
const text = fs.readFileSync(file, 'utf8');
const lines = text.split('\n');

function ms(a, b) {
  return Number(b - a) / 1e6;
}
function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
/** Peak resident set of the process (VmHWM), in MB; null where /proc is unavailable. */
function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time the process has used (user + system), in ms; null where /proc is unavailable. */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;  // utime, stime in 1/100 s
  } catch {
    return null;
  }
}

/** Sends via `send()` and resolves with the ms until the next publishDiagnostics for `uri`. */
async function timeToDiagnostics(c, uri, send) {
  const before = (c.diagnostics.get(uri) || []).length;
  const t0 = process.hrtime.bigint();
  await send();
  await c.until(() => (c.diagnostics.get(uri) || []).length > before, 60000, `diagnostics for ${uri}`);
  const list = c.diagnostics.get(uri);
  return { ms: ms(t0, list[list.length - 1].at), diagnostics: list[list.length - 1].diagnostics };
}

(async () => {
  const dir = path.dirname(path.resolve(file));
  const c = new LspClient(command, { cwd: dir });
  const out = { server: name, file: path.basename(file, '.py') };
  try {
    await c.initialize(null, { textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] } } });

    // 1. First diagnostics after didOpen: the first open in this server (cold), then the median
    // of 5 more opens of the same text under other names (warm: embedded modules parsed).
    const opens = [];
    let cpu0 = cpuMs(c.proc.pid);
    for (let i = 0; i < 6; ++i) {
      const uri = fileUri(path.join(dir, `bench_open_${i}.py`));
      const r = await timeToDiagnostics(c, uri, () => c.open(uri, text, 1));
      opens.push(r.ms);
      if (i === 0) out.diagnosticsCount = r.diagnostics.length;
      await c.close(uri);
    }
    if (cpu0 != null) out.cpuPerOpenMs = (cpuMs(c.proc.pid) - cpu0) / 6;
    out.firstDiagnosticsColdMs = opens[0];
    out.firstDiagnosticsMs = median(opens.slice(1));

    // 2. Hover over many positions of the open file: the start of every identifier on every
    // 7th line (thousands of requests), one at a time.
    const uri = fileUri(path.resolve(file));
    await timeToDiagnostics(c, uri, () => c.open(uri, text, 1));
    const positions = [];
    for (let l = 0; l < lines.length; l += 7)
      for (const m of lines[l].matchAll(/[A-Za-z_][A-Za-z_0-9]*/g)) positions.push({ line: l, character: m.index });
    const hovers = [];
    let answered = 0;
    for (const position of positions) {
      const t0 = process.hrtime.bigint();
      const h = await c.request('textDocument/hover', { textDocument: { uri }, position });
      hovers.push(ms(t0, process.hrtime.bigint()));
      if (h) ++answered;
    }
    hovers.sort((a, b) => a - b);
    out.hoverCount = hovers.length;
    out.hoverAnswered = answered;
    out.hoverP50Ms = pct(hovers, 50);
    out.hoverP99Ms = pct(hovers, 99);

    // 3. One-line edit -> new diagnostics: change a dimension (the number 784, which every bench
    // file holds in every block) in the middle of the file, back and forth, 10 times (the first
    // edit counts too).
    const dim = /\b784\b/;
    const target = lines.findIndex((l, i) => i > lines.length / 2 && dim.test(l));
    const col = lines[target].search(dim);
    const edits = [];
    let version = 1;
    cpu0 = cpuMs(c.proc.pid);
    for (let i = 0; i < 10; ++i) {
      const newText = i % 2 === 0 ? '785' : '784';
      const r = await timeToDiagnostics(c, uri, () =>
        c.change(uri, ++version, [{ range: { start: { line: target, character: col }, end: { line: target, character: col + 3 } }, text: newText }]));
      edits.push(r.ms);
      if (i === 0) out.diagnosticsAfterEdit = r.diagnostics.map((d) => d.code).join(",") || "none";
    }
    if (cpu0 != null) out.cpuPerEditMs = (cpuMs(c.proc.pid) - cpu0) / 10;
    out.editToDiagnosticsMs = median(edits);
    out.editToDiagnosticsMaxMs = Math.max(...edits);

    // Not targets: the same edit near the end and near the start of the file (an edit re-runs the
    // statements from the edited one on; the pauser prepares the part before it).
    const editAt = async (line, quietMs = 0) => {
      const c0 = lines[line].search(dim);
      const times = [];
      for (let i = 0; i < 6; ++i) {
        if (quietMs) await new Promise((r) => setTimeout(r, quietMs));
        const newText = i % 2 === 0 ? '785' : '784';
        const r = await timeToDiagnostics(c, uri, () =>
          c.change(uri, ++version, [{ range: { start: { line, character: c0 }, end: { line, character: c0 + 3 } }, text: newText }]));
        times.push(r.ms);
      }
      return median(times);
    };
    const withDim = lines.map((l, i) => (dim.test(l) ? i : -1)).filter((i) => i >= 0);
    out.editNearEndMs = await editAt(withDim[withDim.length - 1]);
    out.editNearStartMs = await editAt(withDim[0]);
    // The middle edit again, each after 300 ms without edits (someone who reads the result
    // before the next change; the edits above come back to back, each as soon as the previous
    // diagnostics arrive, which leaves the server no time to prepare for the next one).
    out.editAfterQuietMs = await editAt(target, 300);

    out.peakRssMb = peakRssMb(c.proc.pid);
    out.lines = lines.length;
    await c.shutdown();
  } catch (e) {
    out.error = String(e && e.stack || e);
    c.proc.kill();
  }
  console.log(JSON.stringify(out));
})();
