#!/usr/bin/env bash
# Refreshes every npm lockfile after a package.json change, recording the
# optional packages of every platform (workerd, esbuild), so that `npm ci`
# (scripts/setup.sh) accepts the lockfile on Linux, macOS and Windows alike
# and set-up never rewrites a tracked file. `--package-lock-only` resolves
# from the registry's metadata without installing anything, which is what
# makes npm record all platforms rather than the host's only.
#
#   ./scripts/lock-npm.sh          rewrite the lockfiles
#   ./scripts/lock-npm.sh --check  fail when a lockfile is incomplete
set -euo pipefail
cd "$(dirname "$0")/.."

projects=(. tests/browser playground bench/peer tests/react mcp-view tests/mcp tests/agui examples/agui-client scripts/cldr clients/ts)
for dir in "${projects[@]}"; do
  (cd "$dir" && npm install --package-lock-only --no-audit --no-fund --loglevel=error >/dev/null)
done
if [ "${1:-}" = "--check" ]; then
  locks=()
  for dir in "${projects[@]}"; do locks+=("$dir/package-lock.json"); done
  if ! git diff --quiet -- "${locks[@]}"; then
    git --no-pager diff --stat -- "${locks[@]}" >&2
    echo "lock-npm: a lockfile was incomplete (rewritten above); commit it" >&2
    exit 1
  fi
fi
