#!/usr/bin/env bash
# Starts the worker locally: deterministic generator, local KV (Miniflare,
# data under .wrangler/state), no keys needed. PORT overrides 8787.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
source scripts/lib/env.sh
export CI="${CI:-true}"
export PATH="$PWD/node_modules/.bin:$PATH"
exec wrangler dev --ip 127.0.0.1 --port "${PORT:-8787}" --show-interactive-dev-session=false "$@"
