#!/usr/bin/env bash
# The real-client test of `tlens lsp`: installs the pinned client library (npm ci from the
# committed lockfile) and runs client.test.js, which exits non-zero when any test fails.
# Usage: bash tests/lsp/client/run.sh /path/to/tlens
set -euo pipefail
tlens=$(realpath "${1:?usage: run.sh /path/to/tlens}")
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
node --test-reporter=spec client.test.js "$tlens"
