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

args=(--release)
case "${GENUI_PROFILE:-release}" in
  dev) args+=(--no-opt) ;;
  profile)
    args+=(--no-opt)
    export CARGO_PROFILE_RELEASE_STRIP=false
    ;;
esac
worker-build "${args[@]}"
