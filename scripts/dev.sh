#!/usr/bin/env bash
# Starts the worker locally: deterministic generator, local KV (Miniflare,
# data under .wrangler/state), no keys needed. PORT overrides 8787.
# The playground is at http://127.0.0.1:8787/; it is built here before
# wrangler starts (wrangler's [build] command builds it again, a no-op).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build-playground.sh
source scripts/lib/env.sh
export CI="${CI:-true}"
export PATH="$PWD/node_modules/.bin:$PATH"
exec wrangler dev --ip 127.0.0.1 --port "${PORT:-8787}" --show-interactive-dev-session=false "$@"
