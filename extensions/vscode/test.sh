#!/usr/bin/env bash
# Builds, lints, tests and packages the VS Code extension, and checks the Neovim configuration
# and Emacs set-ups in docs/editors/. Run from anywhere; exits non-zero on the first failure.
# Needs Node.js 20+ and npm; the browser test needs Debian's chromium and the Neovim test Debian's
# neovim (each installed here when missing, as root, and skipped with a message only when that
# fails); the Emacs test needs emacs-nox, elpa-eglot, elpa-lsp-mode and elpa-dap-mode (installed
# the same way, skipped with a message when missing). With a built tlens (build/tlens or $TLENS),
# the editor tests also run against the real `tlens lsp` and `tlens dap`.
set -euo pipefail
cd "$(dirname "$0")"

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if (( node_major < 20 )); then
  echo "test.sh needs Node.js 20 or later (found $(node --version 2>/dev/null || echo none)): vsce, playwright-core and esbuild's targets require it" >&2
  exit 1
fi

export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# Each node --test run prints TAP; its closing "# pass N" lines are summed into one final line.
tap_log=$(mktemp)
trap 'rm -f "$tap_log"' EXIT
run_tests() {
  node --test "$@" | tee -a "$tap_log"
}
skipped_suites=0

echo "== npm ci"
npm ci --no-audit --no-fund --loglevel=error

echo "== build (esbuild)"
node build.mjs --tests

echo "== lint (tsc --noEmit strict, eslint with type information)"
npx --no-install tsc -p . --noEmit
npx --no-install tsc -p media --noEmit
npx --no-install eslint --max-warnings 0 .

echo "== unit tests"
run_tests out/test/unit/

echo "== graph view in headless Chromium"
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ ! -x "$CHROMIUM_PATH" ]] && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 || true
fi
if [[ -x "$CHROMIUM_PATH" ]]; then
  CHROMIUM_PATH="$CHROMIUM_PATH" run_tests out/test/browser/
  echo "screenshots: $(pwd)/test-artifacts/"
else
  echo "SKIPPED: the graph-view browser test needs Chromium at $CHROMIUM_PATH (apt-get install chromium)"
  skipped_suites=$((skipped_suites + 1))
fi

echo "== docs/editors/neovim.md in headless Neovim (built-in LSP client)"
if ! command -v nvim >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null 2>&1 || true
fi
if command -v nvim >/dev/null; then
  run_tests out/test/editors/neovim.test.js
else
  echo "SKIPPED: the Neovim configuration test needs nvim (apt-get install neovim)"
  skipped_suites=$((skipped_suites + 1))
fi

echo "== docs/editors/emacs.md in Emacs (eglot, lsp-mode, dap-mode)"
if ! command -v emacs >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emacs-nox elpa-eglot elpa-lsp-mode elpa-dap-mode >/dev/null 2>&1 || true
fi
if command -v emacs >/dev/null && emacs --batch --eval "(progn (package-initialize) (require 'eglot) (require 'dap-mode))" >/dev/null 2>&1; then
  run_tests out/test/editors/emacs.test.js
else
  echo "SKIPPED: the Emacs configuration test needs apt-get install emacs-nox elpa-eglot elpa-lsp-mode elpa-dap-mode"
  skipped_suites=$((skipped_suites + 1))
fi

echo "== package (.vsix, offline) from a clean state, as on a fresh checkout"
# `npm run package` must build by itself (the `vscode:prepublish` script) and create its output
# folder: remove both first, so a package that only works after an earlier build fails here.
rm -rf dist dist-vsix
npm run --silent package
run_tests out/test/unit/bundle.test.js   # the minified bundle loads too
vsix_files=$(python3 -m zipfile -l dist-vsix/tensorlens.vsix)
for f in extension/package.json extension/dist/extension.js extension/dist/media/graphView.js \
         extension/dist/media/graphView.css extension/snippets/python.json; do
  grep -q "^$f " <<<"$vsix_files" || {
    echo "dist-vsix/tensorlens.vsix lacks $f:" >&2; echo "$vsix_files" >&2; exit 1; }
done
if grep -q '\.map ' <<<"$vsix_files"; then
  echo "dist-vsix/tensorlens.vsix ships a source map (not a production build):" >&2; echo "$vsix_files" >&2; exit 1
fi
ls -l dist-vsix/tensorlens.vsix dist/extension.js dist/media/graphView.js

tap_sum() { awk -v k="$1" '$1 == "#" && $2 == k { n += $3 } END { print n + 0 }' "$tap_log"; }
(( skipped_suites == 0 )) || echo "$skipped_suites test suite(s) skipped for a missing browser or editor (see SKIPPED above)"
echo "vscode: $(tap_sum pass) passed, $(tap_sum fail) failed, $(tap_sum skipped) skipped"
