#!/usr/bin/env bash
# Builds the worker to build/index.js + build/index_bg.wasm with worker-build.
#
# Two toolchain routes:
#  - rustup with the wasm32-unknown-unknown target installed (a normal laptop);
#  - Debian's rustc-web + rust-web-src, rebuilding std for wasm32 with
#    -Zbuild-std (machines whose rustup cannot download rust-std).
# Tools (worker-build, wasm-bindgen) are found on PATH or in
# $GENUI_TOOLS/bin; run ./scripts/setup.sh first on a new machine.
#
# GENUI_PROFILE=dev skips wasm-opt (cargo's release profile still builds).
# GENUI_PROFILE=profile builds the shipped profile but keeps function names
# (no strip, no wasm-opt), so V8's CPU profiler names wasm functions
# (bench/optimize/cpu.mjs --profile); never deploy it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/env.sh

# The playground is part of what wrangler serves (wrangler.toml [assets]).
./scripts/build-playground.sh
# The MCP form view, embedded in the wasm (src/shell/platform.rs).
./scripts/build-mcp-view.sh

use_wasm_toolchain

export WASM_BINDGEN_BIN="$(command -v wasm-bindgen)"
export ESBUILD_BIN="$PWD/node_modules/esbuild/bin/esbuild"
export WASM_OPT_BIN="$PWD/node_modules/.bin/wasm-opt"

profile="${GENUI_PROFILE:-release}"
args=(--release)
case "$profile" in
  dev) args+=(--no-opt) ;;
  profile)
    args+=(--no-opt)
    export CARGO_PROFILE_RELEASE_STRIP=false
    ;;
esac

# wrangler dev runs this script at every start, and worker-build's
# wasm-bindgen and wasm-opt steps take a minute or more even when nothing
# changed. So cargo runs first, with worker-build's own arguments and
# environment, and build/ is left as it is when build/.made-by says it was
# made from this very artefact (its SHA-256) with the same profile, tools,
# Cargo.toml (its wasm-opt flags) and worker-build switches, and build/
# still holds the files it made then. `rm build/.made-by` forces a rebuild.
WASM_BINDGEN_USE_JS_SYS=1 cargo build --quiet --lib --release --target wasm32-unknown-unknown
target_dir=$(cargo metadata --no-deps --format-version 1 |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
artefact="$target_dir/wasm32-unknown-unknown/release/genui_worker.wasm"
[ -f "$artefact" ] || { echo "build-wasm: cargo built no $artefact" >&2; exit 1; }
stamp=build/.made-by
made_from() {
  echo "$profile; $(worker-build --version 2>&1); $(wasm-bindgen --version); $("$WASM_OPT_BIN" --version)"
  echo "esbuild $("$ESBUILD_BIN" --version); NO_MINIFY=${NO_MINIFY:-} RUN_TO_COMPLETION=${RUN_TO_COMPLETION:-} CUSTOM_SHIM=${CUSTOM_SHIM:-} COREDUMP=${COREDUMP:-}"
  sha256sum Cargo.toml "$artefact"
}
made() { sha256sum build/index_bg.wasm build/index.js 2>/dev/null || true; }
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(made_from; made)" ]; then
  echo "build-wasm: build/ is up to date with $artefact ($profile)" >&2
  exit 0
fi
rm -f "$stamp"
worker-build "${args[@]}"
{ made_from; made; } >"$stamp.new" && mv "$stamp.new" "$stamp"
