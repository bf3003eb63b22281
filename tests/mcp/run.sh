#!/usr/bin/env bash
# The MCP layer (tests/mcp/run.mjs) with the repository's node 22: the
# conformance suite needs Node >= 22 (it imports `globSync` from node:fs).
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
exec "$root/node_modules/.bin/node" run.mjs
