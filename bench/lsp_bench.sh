#!/usr/bin/env bash
# The language server's benchmark (issue #5 and #17 targets): tlens lsp on several differently
# shaped ~5,000-line files through a real LSP client (tests/lsp/client): the TF1-style file of
# `tlens_bench interp` (`tf1_blocks`, bench/TfStyleFile.h) and the files of bench/lsp_files.py
# (`tf2_models`, `tf1_graph`, `numpy_pipeline`, `flat_module`).
#   bash bench/lsp_bench.sh [BUILD_DIR] [--baseline OTHER_TLENS] [--runs N] [--files a,b,...]
# Each server runs N times on each file (default 3; with a baseline, interleaved with it, so load
# hits both alike) and the median of each measure is reported per file, with its ratio to the
# target and, with --baseline (another build of tlens, e.g. of an earlier commit), to the
# baseline. The CPU (model and flags that matter: AVX2, AVX-512) and the load are printed first:
# every figure quoted from here names them. When pyright-langserver is on PATH, the same
# measurements run against it, side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build baseline="" runs=3 files="tf1_blocks,tf2_models,tf1_graph,numpy_pipeline,flat_module"
while (($#)); do
  case "$1" in
    --baseline) baseline=$(realpath "$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    *) build=$1; shift ;;
  esac
done
build=$(realpath "$build")
for b in tlens tlens_bench; do
  [ -x "$build/$b" ] || { echo "lsp_bench: $build/$b is missing (cmake --build $build --target tlens tlens_bench)" >&2; exit 1; }
done
(cd tests/lsp/client && npm ci --no-audit --no-fund --loglevel=error)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tlens_bench" --tf-file 5000 > "$work/tf1_blocks.py"
python3 bench/lsp_files.py "$work" 2>/dev/null
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
simd=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512f|avx512bw|avx512vl)$' | tr '\n' ' ')
echo "lsp_bench: $(nproc) cores, $cpu, ${simd:-no AVX2}; load average $(cut -d' ' -f1-3 /proc/loadavg) (other processes inflate every time)"

results=()
IFS=, read -ra names <<< "$files"
for name in "${names[@]}"; do
  f="$work/$name.py"
  [ -f "$f" ] || { echo "lsp_bench: no file $name" >&2; exit 1; }
  for ((i = 0; i < runs; ++i)); do
    results+=("$(node bench/lsp_bench.js "$f" "tlens lsp" -- "$build/tlens" lsp | tail -1)")
    if [ -n "$baseline" ]; then
      results+=("$(node bench/lsp_bench.js "$f" "baseline" -- "$baseline" lsp | tail -1)")
    fi
  done
  if command -v pyright-langserver >/dev/null 2>&1; then
    results+=("$(node bench/lsp_bench.js "$f" "pyright" -- pyright-langserver --stdio | tail -1)")
  fi
done
command -v pyright-langserver >/dev/null 2>&1 || echo "(pyright-langserver is not on PATH: no side-by-side numbers)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

node - "${results[@]}" <<'JS'
const all = process.argv.slice(2).map((r) => JSON.parse(r));
const targets = [
  ['first diagnostics after didOpen (median of 5 warm)', 'firstDiagnosticsMs', 150, 'ms'],
  ['first diagnostics, first open in a fresh server', 'firstDiagnosticsColdMs', 150, 'ms'],
  ['hover p50', 'hoverP50Ms', 5, 'ms'],
  ['hover p99', 'hoverP99Ms', 5, 'ms'],
  ['one-line edit -> new diagnostics (median of 10)', 'editToDiagnosticsMs', 50, 'ms'],
  ['one-line edit -> new diagnostics (max of 10)', 'editToDiagnosticsMaxMs', 50, 'ms'],
  ['peak server memory (VmHWM)', 'peakRssMb', 100, 'MB'],
];
// Not targets: the server's CPU time per open (analysis, publishing, teardown) and per edit;
// much less sensitive to other processes than the wall-clock times above.
const extra = [['server CPU per open', 'cpuPerOpenMs', 'ms'], ['server CPU per edit', 'cpuPerEditMs', 'ms'],
               ['the same edit near the end of the file (median of 6)', 'editNearEndMs', 'ms'],
               ['the same edit near the start of the file (median of 6)', 'editNearStartMs', 'ms'],
               ['the middle edit after 300 ms without edits (median of 6)', 'editAfterQuietMs', 'ms']];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const servers = [...new Set(all.map((r) => r.server))];
const files = [...new Set(all.map((r) => r.file))];
for (const file of files) {
const rows = {};
for (const name of servers) {
  const runs = all.filter((r) => r.server === name && r.file === file);
  if (!runs.length) continue;
  const failed = runs.find((r) => r.error);
  if (failed) { console.log(`${name}: FAILED: ${failed.error}`); process.exitCode = 1; continue; }
  const row = { ...runs[0], runs: runs.length };
  for (const [, key] of [...targets, ...extra]) if (runs.every((r) => r[key] != null)) row[key] = median(runs.map((r) => r[key]));
  rows[name] = row;
  console.log(`== ${name}: ${file}, ${row.lines}-line file, ${row.diagnosticsCount} diagnostics; ${row.hoverCount} hovers ` +
              `(${row.hoverAnswered} with content); median of ${row.runs} run(s)`);
  console.log('  measure'.padEnd(54) + 'value'.padStart(11) + 'target'.padStart(10) + 'ratio'.padStart(8));
  for (const [label, key, target, unit] of targets) {
    const v = row[key];
    if (v == null) { console.log(`  ${label.padEnd(52)}${'n/a'.padStart(11)}`); continue; }
    const ratio = v / target;
    console.log(`  ${label.padEnd(52)}${(v.toFixed(2) + ' ' + unit).padStart(11)}${(target + ' ' + unit).padStart(10)}` +
                `${ratio.toFixed(2).padStart(8)}  ${ratio <= 1 ? 'PASS' : 'MISS'}`);
  }
  for (const [label, key, unit] of extra)
    if (row[key] != null) console.log(`  ${label.padEnd(52)}${(row[key].toFixed(1) + ' ' + unit).padStart(11)}`);
}
for (const other of ['baseline', 'pyright']) {
  if (!rows['tlens lsp'] || !rows[other]) continue;
  console.log(`== ${file}: tlens lsp / ${other} (below 1: tlens lsp is faster or smaller)`);
  for (const [label, key] of [...targets, ...extra])
    if (rows['tlens lsp'][key] != null && rows[other][key]) console.log(`  ${label.padEnd(52)}${(rows['tlens lsp'][key] / rows[other][key]).toFixed(2).padStart(11)}`);
}
}
JS
