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
# GENUI_PROFILE=dev skips wasm-opt and LTO-heavy work for quick loops.
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
# environment; when its artefact is no newer than build/, and build/ was
# made by the same profile and tools, build/ is already that artefact's.
# (cargo leaves a fresh artefact's modification time alone.)
WASM_BINDGEN_USE_JS_SYS=1 cargo build --quiet --lib --release --target wasm32-unknown-unknown
artefact="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/genui_worker.wasm"
stamp=build/.made-by
made_by="$profile $(worker-build --version 2>&1) $(wasm-bindgen --version) $("$WASM_OPT_BIN" --version)"
if [ -f build/index.js ] && [ -f build/index_bg.wasm ] && [ -f "$stamp" ] &&
  [ "$(cat "$stamp")" = "$made_by" ] && [ ! "$artefact" -nt build/index_bg.wasm ]; then
  echo "build-wasm: build/ is up to date with $artefact ($profile)" >&2
  exit 0
fi
rm -f "$stamp"
worker-build "${args[@]}"
echo "$made_by" >"$stamp"
