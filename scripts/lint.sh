#!/usr/bin/env bash
# The house rules, checked: rustfmt (the workspace and fuzz/), clippy with
# every warning an error for the native build (all targets: libs, tests,
# examples, benches, bins), and clippy for wasm32 so the worker shell
# (src/shell, compiled only for wasm32) is linted too.
#
# The wasm32 pass uses the toolchain the wasm build uses (scripts/lib/env.sh):
# rustup's when it has the wasm32 target, else Debian's rustc-web with its
# rust-web-clippy, std rebuilt from rust-web-src. Clippy lints only the
# workspace's own crates; dependencies are checked, not linted.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/env.sh

echo "lint: cargo fmt --check" >&2
cargo fmt --all --check
cargo fmt --all --check --manifest-path fuzz/Cargo.toml

echo "lint: cargo clippy, native" >&2
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "lint: cargo clippy, wasm32 (the worker shell)" >&2
# The shell embeds the MCP view at compile time.
./scripts/build-mcp-view.sh
(
  # Its own target dir (never a native one set by the caller): artifacts of
  # another rustc and std built from source must not mix with native ones.
  unset CARGO_TARGET_DIR
  use_wasm_toolchain
  cargo clippy --target wasm32-unknown-unknown -p genui-worker --lib --quiet -- -D warnings
)
