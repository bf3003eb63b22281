#!/usr/bin/env bash
# Installs whatever is missing to build and test genui-worker; does nothing
# that is already done, so every other script can call it first.
#
#  - Rust wasm toolchain: rustup's wasm32 target when installed, else Debian's
#    rustc-web + rust-web-src + lld (std rebuilt for wasm32, see
#    scripts/build-wasm.sh) and rust-web-clippy, the clippy of that same
#    rustc, so scripts/lint.sh lints the wasm32 shell;
#  - worker-build and wasm-bindgen-cli (the exact wasm-bindgen in Cargo.lock),
#    and cargo-fuzz where rustup has a nightly, built from crates.io into
#    $GENUI_TOOLS in the background while the steps below download;
#  - node tooling from package.json: wrangler (workerd + Miniflare), wasm-opt
#    (binaryen), and node 22 for wrangler;
#  - the playground's npm packages (playground/package.json);
#  - every npm project with `npm ci` against its committed lockfile;
#  - the one Python environment (scripts/lib/python-requirements.txt):
#    schemathesis, LangGraph and ag-ui-langgraph.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/env.sh

log() { echo "setup: $*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Cargo used to build host tools: Debian's when present (proven here), else PATH's.
host_cargo() {
  if [ -x /usr/bin/cargo ]; then echo /usr/bin/cargo; else command -v cargo; fi
}

cargo_tool() { # name version crate
  local name=$1 version=$2 crate=$3 extra=${4:-}
  if [ -x "$GENUI_TOOLS/bin/$name" ] && "$GENUI_TOOLS/bin/$name" --version 2>/dev/null | grep -q "$version"; then
    return 0
  fi
  log "cargo install $crate $version (a few minutes, once)"
  PATH="/usr/bin:$PATH" "$(host_cargo)" install $extra "$crate" --version "$version" --root "$GENUI_TOOLS" --quiet
}

lock_version() { # crate name -> version from Cargo.lock
  awk -v name="$1" '$0 == "name = \"" name "\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

if ! rustup_has_wasm_target; then
  apt_install rustc-web cargo-web rust-web-src rust-web-clippy lld
fi
# The native lint pass (scripts/lint.sh): rustfmt and clippy of the host toolchain.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  log "rustup component add rustfmt clippy"
  rustup component add rustfmt clippy
fi
command -v curl >/dev/null 2>&1 || apt_install curl
command -v node >/dev/null 2>&1 || apt_install nodejs npm

# The cargo tools take most of a fresh set-up's CPU (about 10 minutes on
# 2 cores), while apt, npm and pip below mostly wait on the network and the
# disk: build them in the background meanwhile (in a process group of their
# own, stopped if set-up ends early), and wait for them at the end.
tools_log=$(mktemp)
stop_tools() {
  if kill -0 "$tools_pid" 2>/dev/null; then
    kill -- "-$tools_pid" 2>/dev/null || true
    log "stopped building the cargo tools (log: $tools_log)"
  else
    rm -f "$tools_log"
  fi
}
set -m
(
  cargo_tool worker-build "$(lock_version worker)" worker-build --locked
  cargo_tool wasm-bindgen "$(lock_version wasm-bindgen)" wasm-bindgen-cli
  # The fuzzing layer's cargo-fuzz, installed as scripts/fuzz.sh installs
  # it (which tries again when this did not).
  if rustup toolchain list 2>/dev/null | grep '^nightly' >/dev/null && ! command -v cargo-fuzz >/dev/null; then
    log "cargo install cargo-fuzz 0.13.2"
    cargo install cargo-fuzz --version 0.13.2 --locked --root "$GENUI_TOOLS" --quiet ||
      log "cargo-fuzz was not built; scripts/fuzz.sh tries again"
  fi
) >"$tools_log" 2>&1 &
tools_pid=$!
set +m
trap stop_tools EXIT

# npm ci installs exactly the committed lockfile and never rewrites it (set-up
# must leave the tree clean). The lockfiles record every platform's optional
# packages (workerd, esbuild), so npm ci accepts them on any OS; after a
# dependency change, refresh them with ./scripts/lock-npm.sh.
npm_ci() { # dir what
  local dir=$1 what=$2
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    log "npm ci in $dir ($what)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
}

npm_ci . "wrangler, binaryen, node 22"

# The browser layer: Debian's Chromium (never a downloaded browser) and the
# renderers' npm project.
apt_install chromium wrk
npm_ci tests/browser "JSON Forms, RJSF, CopilotKit (react-core, runtime), esbuild, playwright-core"
npm_ci tests/agui "@ag-ui/client, @ag-ui/core: the streaming layer's real clients"
npm_ci examples/agui-client "@ag-ui/client, typescript: the AG-UI client example"
npm_ci clients/ts "fast-json-patch, canonicalize, typescript, json-schema-to-typescript and the optional peers (React, JSON Forms, RJSF, CopilotKit, AG-UI) it type-checks against"
npm_ci scripts/cldr "cldr-localenames-full, cldr-numbers-full, cldr-dates-full: the source of the option-name table, checked current by a native test"

# The playground served at / (built by scripts/build-playground.sh).
npm_ci playground "React, JSON Forms, RJSF, esbuild"

# The MCP form view (scripts/build-mcp-view.sh) and the MCP client tests.
npm_ci mcp-view "@modelcontextprotocol/ext-apps, esbuild"
npm_ci tests/mcp "MCP conformance suite, MCP SDKs"

# The one Python environment: API fuzzing and the LangGraph agent example.
source scripts/lib/python-env.sh
python_env >/dev/null

tools_status=0
wait "$tools_pid" || tools_status=$?
trap - EXIT
cat "$tools_log" >&2
rm -f "$tools_log"
if [ "$tools_status" != 0 ]; then
  log "building the cargo tools failed (status $tools_status)"
  exit 1
fi
