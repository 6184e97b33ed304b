#!/usr/bin/env bash
# End-to-end tests of the debugger: Microsoft's DAP test client (DebugClient, from
# @vscode/debugadapter-testsupport) drives the real `tlens dap` process, and `tlens run --listen`
# over TCP. Usage: bash tests/dap/e2e/run.sh /path/to/tlens   (default: build/tlens)
# Installs the pinned npm packages (npm ci from package-lock.json) and fails on any failure.
set -euo pipefail
cd "$(dirname "$0")"
tlens=${1:-../../../build/tlens}
if [[ ! -x "$tlens" ]]; then
  echo "tests/dap/e2e/run.sh: no tlens binary at $tlens (build it: cmake --build build --target tlens)" >&2
  exit 1
fi
export TLENS
TLENS=$(cd "$(dirname "$tlens")" && pwd)/$(basename "$tlens")
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
echo "== tests/dap/e2e: npm ci"
npm ci --no-audit --no-fund --loglevel=error
echo "== tests/dap/e2e: DebugClient against $TLENS"
npx --no-install mocha "${@:2}"
