#!/usr/bin/env bash
# Latency benchmark under wrangler dev (healthz floor, cache hit, cache miss;
# concurrency 1 and 8) and the wasm size; prints a Markdown table and writes
# it to bench-results/latency.md. See tests/harness/src/bin/bench_latency.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build-wasm.sh
cargo run --release -p genui-harness --bin bench-latency -- "$@"
