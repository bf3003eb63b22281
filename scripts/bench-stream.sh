#!/usr/bin/env bash
# First paint against the full answer (issue 16): under wrangler dev, with
# the scripted model server delaying every answer (default 2 s), the time to
# the first `ui` event of a streamed /v1/generate against the time to the
# whole JSON answer, p50/p99 over 200 requests of each. Writes
# bench-results/stream.md. A benchmark: never run by scripts/test.sh.
#
#   ./scripts/bench-stream.sh [--requests N] [--delay-ms MS] [--concurrency C]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build-wasm.sh
# Both binaries: bench-stream starts the model server that sits beside it.
cargo build --release -p genui-harness --bin model-server --bin bench-stream
target/release/bench-stream "$@"
