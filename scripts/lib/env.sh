# Shared environment for the project's scripts (sourced, not run).
# Where cargo-installed tools (worker-build, wasm-bindgen) live between runs.
export GENUI_TOOLS="${GENUI_TOOLS:-$HOME/.cache/genui-worker/tools}"
export PATH="$GENUI_TOOLS/bin:$PATH"
# Quiet, non-interactive wrangler.
export WRANGLER_SEND_METRICS=false
export WRANGLER_SEND_ERROR_REPORTS=false

# True when rustup's active toolchain can build for wasm32 on its own.
rustup_has_wasm_target() {
  command -v rustup >/dev/null 2>&1 &&
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown
}

# Points cargo at a toolchain that can build for wasm32: rustup's when it
# has the target, else Debian's rustc-web (+ rust-web-clippy) rebuilding std
# from rust-web-src with -Zbuild-std, in a target dir of its own so std
# built from source never mixes with rustup's. Used by build-wasm.sh and
# lint.sh; call it in the shell (or subshell) that runs the wasm cargo.
use_wasm_toolchain() {
  if rustup_has_wasm_target; then
    echo "wasm32: rustup toolchain with wasm32 std" >&2
    return 0
  fi
  echo "wasm32: Debian rustc-web with -Zbuild-std" >&2
  export PATH="/usr/bin:$PATH"
  export RUSTC_BOOTSTRAP=1
  export CARGO_UNSTABLE_BUILD_STD="std,panic_abort"
  mkdir -p "$(/usr/bin/rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown/lib"
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/bin/wasm-ld
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/wasm-debian}"
}
