#!/usr/bin/env bash
# Starts the worker locally: deterministic generator, local KV (Miniflare,
# data under .wrangler/state), no keys needed. PORT overrides 8787.
# CORS is open to http://localhost and http://127.0.0.1 on any port unless
# ALLOWED_ORIGINS is set (scripts/lib/dev-defaults.vars; one line on stderr
# says which).
# The playground is at http://127.0.0.1:8787/; it is built here before
# wrangler starts (wrangler's [build] command builds it again, a no-op).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build-playground.sh
source scripts/lib/env.sh
export CI="${CI:-true}"
export PATH="$PWD/node_modules/.bin:$PATH"
# The local defaults (scripts/lib/dev-defaults.vars) come before the caller's
# arguments, so a --var of the caller's wins; ALLOWED_ORIGINS set in the
# environment is passed on as well.
defaults=()
while IFS= read -r line; do
  case "$line" in '' | '#'*) continue ;; esac
  defaults+=(--var "$line")
done <scripts/lib/dev-defaults.vars
if [ -n "${ALLOWED_ORIGINS:-}" ]; then
  defaults+=(--var "ALLOWED_ORIGINS:$ALLOWED_ORIGINS")
  echo "dev.sh: CORS allows ALLOWED_ORIGINS=$ALLOWED_ORIGINS (from the environment)" >&2
else
  echo "dev.sh: CORS allows http://localhost and http://127.0.0.1 on any port (DEV_ALLOWED_ORIGINS); an ALLOWED_ORIGINS in .dev.vars, --var or the environment replaces that" >&2
fi
exec wrangler dev --ip 127.0.0.1 --port "${PORT:-8787}" --show-interactive-dev-session=false "${defaults[@]}" "$@"
