#!/usr/bin/env bash
# Builds, lints, tests and packages the VS Code extension, and checks the Neovim configuration
# in docs/editors/. Run from anywhere; exits non-zero on the first failure. Needs node and npm
# (Debian: nodejs, npm); the browser test needs Debian's chromium and the Neovim test Debian's
# neovim: each is installed when missing (as root) and skipped, with a message, only when it
# cannot be.
set -euo pipefail
cd "$(dirname "$0")"

export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

echo "== npm ci"
npm ci --no-audit --no-fund --loglevel=error

echo "== build (esbuild)"
node build.mjs --tests

echo "== lint (tsc --noEmit, strict)"
npx --no-install tsc -p . --noEmit
npx --no-install tsc -p media --noEmit

echo "== unit tests"
node --test out/test/unit/

echo "== graph view in headless Chromium"
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ ! -x "$CHROMIUM_PATH" ]] && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 || true
fi
if [[ -x "$CHROMIUM_PATH" ]]; then
  CHROMIUM_PATH="$CHROMIUM_PATH" node --test out/test/browser/
  echo "screenshots: $(pwd)/test-artifacts/"
else
  echo "SKIPPED: the graph-view browser test needs Chromium at $CHROMIUM_PATH (apt-get install chromium)"
fi

echo "== docs/editors/neovim.md in headless Neovim"
if ! command -v nvim >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null 2>&1 || true
fi
if command -v nvim >/dev/null; then
  node --test out/test/editors/
else
  echo "SKIPPED: the Neovim configuration test needs nvim (apt-get install neovim)"
fi

echo "== package (.vsix, offline)"
node build.mjs --production
mkdir -p dist-vsix
npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license \
  -o dist-vsix/tensorlens.vsix
ls -l dist-vsix/tensorlens.vsix dist/extension.js dist/media/graphView.js
