#!/usr/bin/env bash
# Builds the playground (playground/src -> playground/dist, the worker's
# static assets served at /). Installs its npm packages (npm ci, which never
# rewrites the lockfile) when they are missing or older than
# playground/package-lock.json; the build itself is skipped when
# nothing changed (see playground/build.mjs), so every script can call this.
# wrangler refuses to start when the assets directory is missing, so it runs
# before `wrangler dev` (dev.sh) and inside the worker build (build-wasm.sh,
# which is wrangler.toml's [build] command).
set -euo pipefail
cd "$(dirname "$0")/../playground"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "build-playground: npm ci in playground/ (React, JSON Forms, RJSF, esbuild)" >&2
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
node build.mjs "$@"
