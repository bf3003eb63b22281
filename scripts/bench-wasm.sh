#!/usr/bin/env bash
# CPU and memory of the shipped wasm (issue 13). Writes bench-results/wasm.md
# and the per-call figures in bench-results/wasm/*.json:
#  1. the inputs: the bench forms of 5, 50 and 500 fields by kind and format,
#     the peer corpus (bench/peer/corpus.py, fetched once from PyPI), the
#     worst inputs (crates/genui-core/examples/wasm_bench.rs);
#  2. natively (criterion's profile), per call;
#  3. in a bare V8: bench/wasm-node built with the shipped profile, run by
#     node 22 (bench/wasm-node/run.mjs), per call, plus its linear memory;
#  4. in workerd: workerd alone serving the exact upload (`wrangler deploy
#     --dry-run --outdir`, no bindings: the figure closest to the bill),
#     then `wrangler dev` serving the exact build/ artefact of
#     ./scripts/build-wasm.sh, with KV unbound and with local KV
#     (tests/harness/src/bin/bench_wasm.rs), CPU per request from /proc.
# About 10 minutes on 2 cores once the builds are cached. Not part of
# scripts/test.sh: a benchmark asserts no time.
#
#   ./scripts/bench-wasm.sh            # everything above
#   ./scripts/bench-wasm.sh --matrix   # only the size matrix, after a full run:
#     opt-level z/s/2/3 x wasm-opt -Oz/-O3 of the node entry, gzip bytes and
#     node CPU of a few cases (4 cold release builds, about 25 minutes on 2
#     busy cores), then the report again. The committed [profile.release]
#     is not changed: CARGO_PROFILE_RELEASE_OPT_LEVEL overrides it.
set -euo pipefail
cd "$(dirname "$0")/.."
matrix=0
for arg in "$@"; do
  case "$arg" in
    --matrix) matrix=1 ;;
    *) echo "bench-wasm.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
./scripts/setup.sh
source scripts/lib/env.sh
export PATH="$PWD/node_modules/.bin:$PATH" # node 22 first
RUN=target/bench-wasm
OUT=bench-results/wasm
mkdir -p "$RUN" "$OUT"
started=$(date -u)
SECONDS=0
log() { printf '\n==> bench-wasm: %s (%d s)\n' "$*" "$SECONDS" >&2; }

# The node entry, built exactly as build-wasm.sh builds the worker (same
# toolchain route, the workspace's release profile), then wasm-bindgen
# --target nodejs and wasm-opt with worker-build's flags.
# build_node_entry <out dir> <wasm-opt level>; CARGO_PROFILE_RELEASE_* apply.
build_node_entry() (
  local out=$1 level=$2
  if ! rustup_has_wasm_target; then
    export PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD="std,panic_abort"
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/bin/wasm-ld
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/wasm-debian}"
  fi
  local target_dir="${CARGO_TARGET_DIR:-target}"
  cargo build --quiet --release --target wasm32-unknown-unknown -p genui-wasm-node
  rm -rf "$out" && mkdir -p "$out"
  wasm-bindgen --target nodejs --out-dir "$out" "$target_dir/wasm32-unknown-unknown/release/genui_wasm_node.wasm"
  # worker-build's wasm-opt invocation: the profile's flags, its feature
  # set, and --debuginfo (it keeps the names section).
  node_modules/.bin/wasm-opt "$level" --enable-simd --enable-mutable-globals --enable-sign-ext \
    --enable-nontrapping-float-to-int --enable-bulk-memory --enable-multivalue --enable-reference-types \
    --enable-exception-handling --debuginfo "$out/genui_wasm_node_bg.wasm" -o "$out/genui_wasm_node_bg.wasm"
)
gz() { gzip -9 -c "$1" | wc -c; }

if [ "$matrix" = 0 ]; then
log "the shipped module (./scripts/build-wasm.sh)"
./scripts/build-wasm.sh


log "the node entry (bench/wasm-node), shipped profile"
build_node_entry "$RUN/node-entry" -Oz

log "inputs"
python3 bench/peer/corpus.py . >&2
NATIVE=(cargo run --quiet --profile bench -p genui-core --example wasm_bench --)
"${NATIVE[@]}" inputs target/peer-corpus "$RUN/inputs.json"

log "native"
"${NATIVE[@]}" time "$RUN/inputs.json" "$OUT/native.json"

log "node: times, then memory in a fresh process"
node bench/wasm-node/run.mjs times "$RUN/node-entry" "$RUN/inputs.json" "$OUT/node.json"
node bench/wasm-node/run.mjs memory "$RUN/node-entry" "$RUN/inputs.json" "$OUT/node-memory.json"

log "workerd under wrangler dev: KV unbound, then local KV"
# Two configs next to the project's, serving build/ as it is (no [build]
# step, so nothing is rebuilt under the bench): one without
# [[kv_namespaces]], one with it.
sed -e '/^\[build\]/,/^$/d' -e "s#^main = \"build/#main = \"$PWD/build/#" \
  -e "s#^directory = \"./playground#directory = \"$PWD/playground#" wrangler.toml > "$RUN/wrangler.kv.toml"
sed -e '/^\[\[kv_namespaces\]\]/,/^$/d' "$RUN/wrangler.kv.toml" > "$RUN/wrangler.nokv.toml"
grep -q kv_namespaces "$RUN/wrangler.nokv.toml" && { echo "bench-wasm.sh: the KV binding survived in wrangler.nokv.toml" >&2; exit 1; }
# workerd alone: the exact upload (`wrangler deploy --dry-run --outdir`,
# KV unbound, no assets) served by the workerd binary itself, with no
# wrangler, Miniflare or dev proxy in front (tests/harness/src/workerd.rs).
sed -e '/^\[assets\]/,/^$/d' "$RUN/wrangler.nokv.toml" > "$RUN/wrangler.upload.toml"
rm -rf "$RUN/upload"
node_modules/.bin/wrangler deploy --dry-run --config "$RUN/wrangler.upload.toml" --outdir "$PWD/$RUN/upload" > "$RUN/upload.log" 2>&1 ||
  { cat "$RUN/upload.log" >&2; exit 1; }
cargo run --quiet --profile bench -p genui-harness --bin bench-wasm -- "$RUN/inputs.json" "$OUT/workerd.json" \
  "alone=$PWD/$RUN/upload" "KV unbound=$RUN/wrangler.nokv.toml" "local KV=$RUN/wrangler.kv.toml"

fi

if [ "$matrix" = 1 ]; then
  log "size against CPU: opt-level z, s, 2, 3 x wasm-opt -Oz, -O3 (node entry)"
  rows=()
  for opt in z s 2 3; do
    for level in -Oz -O3; do
      dir="$RUN/matrix/$opt$level"
      CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt CARGO_TARGET_DIR="target/wasm-matrix-$opt" build_node_entry "$dir" "$level"
      node bench/wasm-node/run.mjs times "$dir" "$RUN/inputs.json" "$dir/node.json" '^(miss|coldmiss|hit)/jsonforms/50$|^corpus/'
      rows+=("{\"opt\":\"$opt\",\"wasmOpt\":\"$level\",\"gzip\":$(gz "$dir/genui_wasm_node_bg.wasm"),\"file\":\"$dir/node.json\"}")
    done
  done
  (IFS=,; echo "[${rows[*]}]") > "$RUN/matrix-rows.json"
  node bench/wasm-node/matrix.mjs "$RUN/matrix-rows.json" "$OUT/matrix.json"
fi

log "report"
if [ "$matrix" = 0 ]; then
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
# The release profile's opt-level, which the shipped module, the node entry
# and (through [profile.bench]) the native figures share.
opt_level=$(awk '/^\[profile.release\]/ { on = 1; next } /^\[/ { on = 0 } on && /^opt-level/ { gsub(/[" ]/, "", $3); print $3 }' Cargo.toml)
cat > "$OUT/meta.json" <<EOF
{"date": "$started", "cpu": "$cpu", "nproc": $(nproc), "command": "./scripts/bench-wasm.sh $*",
 "shipped": {"raw": $(stat -c %s build/index_bg.wasm), "gzip": $(gz build/index_bg.wasm)},
 "optLevel": "$opt_level",
 "nodeEntry": {"optLevel": "$opt_level", "wasmOpt": "-Oz --enable-simd", "raw": $(stat -c %s "$RUN/node-entry/genui_wasm_node_bg.wasm"), "gzip": $(gz "$RUN/node-entry/genui_wasm_node_bg.wasm")},
 "seconds": $SECONDS, "node": "$(node --version)", "wrangler": "$(node_modules/.bin/wrangler --version 2>/dev/null | tail -1)",
 "note": "${BENCH_NOTE:-}",
 "commands": ["./scripts/bench-wasm.sh", "cargo run --profile bench -p genui-core --example wasm_bench -- inputs|time ...", "node bench/wasm-node/run.mjs times|memory target/bench-wasm/node-entry ...", "cargo run --profile bench -p genui-harness --bin bench-wasm -- ..."]}
EOF
fi
node bench/wasm-node/report.mjs "$OUT" bench-results/wasm.md
log "done"
