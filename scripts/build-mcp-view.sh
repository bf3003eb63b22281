#!/usr/bin/env bash
# Builds the MCP App view ui://genui/form (mcp-view/src -> mcp-view/dist/view.html),
# which the worker embeds at compile time (src/shell/platform.rs), so it runs
# before the wasm build (build-wasm.sh). Installs the view's npm packages
# (npm ci, never rewriting the lockfile) when missing or older than the lockfile.
set -euo pipefail
cd "$(dirname "$0")/../mcp-view"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "build-mcp-view: npm ci in mcp-view/ (@modelcontextprotocol/ext-apps, esbuild)" >&2
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
node build.mjs
