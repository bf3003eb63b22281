#!/usr/bin/env bash
# Bounded load test against wrangler dev on 127.0.0.1 (see
# tests/harness/src/bin/load_test.rs). Argument: seconds per concurrency
# level (default 10). Results: bench-results/load.md.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
source scripts/lib/env.sh
command -v wrk >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
cargo run --release -q -p genui-harness --bin load-test -- "${1:-10}"
