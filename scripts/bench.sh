#!/usr/bin/env bash
# Whole-worker benchmark under wrangler dev: latency of /healthz, a cache hit
# and a deterministic miss at concurrency 1 and 32 (as ratios to /healthz),
# workerd CPU per request from /proc, cold start, the wasm size; with the
# isolate's spec memory on and off. Writes bench-results/latency.md. Bounded
# (each configuration at most 150 s). See tests/harness/src/bin/bench_latency.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build-wasm.sh
cargo run --release -p genui-harness --bin bench-latency -- "$@"
