#!/usr/bin/env bash
# The language server's benchmark (issue #5 targets): tlens lsp on a 5,000-line TF-style file
# (the file `tlens_bench interp` analyses), through a real LSP client (tests/lsp/client). When
# pyright-langserver is on PATH, the same measurements run against it, side by side.
# Usage: bash bench/lsp_bench.sh [build dir, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
for b in tlens tlens_bench; do
  [ -x "$build/$b" ] || { echo "lsp_bench: $build/$b is missing (cmake --build $build --target tlens tlens_bench)" >&2; exit 1; }
done
(cd tests/lsp/client && npm ci --no-audit --no-fund --loglevel=error)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tlens_bench" --tf-file 5000 > "$work/model.py"

echo "lsp_bench: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) (other processes inflate every time)"
results=()
results+=("$(node bench/lsp_bench.js "$work/model.py" "tlens lsp" -- "$build/tlens" lsp | tail -1)")
if command -v pyright-langserver >/dev/null 2>&1; then
  results+=("$(node bench/lsp_bench.js "$work/model.py" "pyright" -- pyright-langserver --stdio | tail -1)")
else
  echo "(pyright-langserver is not on PATH: no side-by-side numbers)"
fi

node - "${results[@]}" <<'JS'
const rows = process.argv.slice(2).map((r) => JSON.parse(r));
const targets = [
  ['first diagnostics after didOpen (median of 5 warm)', 'firstDiagnosticsMs', 150, 'ms'],
  ['first diagnostics, first open in a fresh server', 'firstDiagnosticsColdMs', 150, 'ms'],
  ['hover p50', 'hoverP50Ms', 5, 'ms'],
  ['hover p99', 'hoverP99Ms', 5, 'ms'],
  ['one-line edit -> new diagnostics (median of 10)', 'editToDiagnosticsMs', 50, 'ms'],
  ['one-line edit -> new diagnostics (max of 10)', 'editToDiagnosticsMaxMs', 50, 'ms'],
  ['peak server memory (VmHWM)', 'peakRssMb', 100, 'MB'],
];
for (const r of rows) {
  if (r.error) { console.log(`${r.server}: FAILED: ${r.error}`); process.exitCode = 1; continue; }
  console.log(`== ${r.server}: ${r.lines}-line file, ${r.diagnosticsCount} diagnostics; ${r.hoverCount} hovers (${r.hoverAnswered} with content)`);
  console.log('  measure'.padEnd(54) + 'value'.padStart(10) + 'target'.padStart(10) + 'ratio'.padStart(8));
  for (const [label, key, target, unit] of targets) {
    const v = r[key];
    if (v == null) { console.log(`  ${label.padEnd(52)}${'n/a'.padStart(10)}`); continue; }
    const ratio = v / target;
    console.log(`  ${label.padEnd(52)}${(v.toFixed(2) + ' ' + unit).padStart(10)}${(target + ' ' + unit).padStart(10)}` +
                `${ratio.toFixed(2).padStart(8)}  ${ratio <= 1 ? 'PASS' : 'MISS'}`);
  }
}
if (rows.length === 2 && !rows.some((r) => r.error)) {
  console.log('== tlens / pyright (below 1: tlens is faster or smaller)');
  for (const [label, key] of targets)
    if (rows[0][key] != null && rows[1][key]) console.log(`  ${label.padEnd(52)}${(rows[0][key] / rows[1][key]).toFixed(2).padStart(10)}`);
}
JS
