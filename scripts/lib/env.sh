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
