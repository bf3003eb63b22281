#!/usr/bin/env bash
# Layout stability of edits in place (previousSpecHash): one field added,
# removed and renamed in every fixture form and, when downloaded
# (./scripts/peer.sh fetches it into target/peer-corpus, or PEER_CORPUS=<dir>),
# every peer-corpus schema. Writes bench-results/layout-stability.md and
# fails below the floor (95 % of surviving fields keep section and row).
#
#   ./scripts/layout-stability.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --quiet -p genui-core --test layout_stability -- --ignored --exact write_layout_stability_figures
cat bench-results/layout-stability.md
