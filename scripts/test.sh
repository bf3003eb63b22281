#!/usr/bin/env bash
# Runs every test layer:
#  1. the house rules (scripts/lint.sh: rustfmt, clippy -D warnings natively
#     and for wasm32; scripts/module-cycles.py: no import cycle among
#     genui-core's files or folders), then the core natively (unit tests,
#     fixture corpus, contract schemas), and clients/python's and clients/ts's unit tests and builds;
#  1b. format=react: every fixture's TSX module typechecked (tsc --strict) and
#      its zod schema run against output's accepted and rejected instances;
#  2. the release wasm build and `wrangler deploy --dry-run --outdir` (the exact
#     upload, no account needed), each held to the 2.0 MB gzip budget;
#  3. end to end: wrangler dev (workerd + local KV) started and stopped by the
#     harness, real HTTP requests, KV read back;
#  4. real renderers (@jsonforms/react, @rjsf/core) in headless Chromium:
#     generate, render, fill, submit, screenshots;
#  4b. MCP: the official conformance suite and the SDK clients against /mcp;
#  5. bounded fuzzing of the core (cargo-fuzz, FUZZ_SECONDS per target);
#  6. API fuzzing with schemathesis against /openapi.json (bounded);
#  7. a bounded load test (wrk at concurrency 1, 32, 128; 0 failures, KV intact).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
source scripts/lib/env.sh

step() { printf '\n==> %s\n' "$*"; }

step "1/7 house rules (fmt, clippy native and wasm32, layers), then core and harness natively"
./scripts/lint.sh
# genui-core's layers: no import cycle among its files, nor its folders.
python3 scripts/module-cycles.py
cargo test --workspace --quiet
# clients/python: its unit tests (no worker); its sdist and wheel built with no
# download, the wheel installed into a scratch dir and imported.
py="$HOME/.cache/genui-worker/venv/bin/python"; "$py" -m pytest -q -p no:cacheprovider -m "not worker" clients/python/tests
# (One command a line: under `set -e` a failure inside an `a && b` list
# would not stop the run.)
dist=$(mktemp -d)
"$py" -m build -q --no-isolation --outdir "$dist" clients/python
ls -l "$dist"
"$py" -m pip install -q --no-deps --disable-pip-version-check --target "$dist/site" "$dist"/*.whl
PYTHONPATH="$dist/site" "$py" -c 'import genui_worker'
rm -rf "$dist"
# clients/ts: its unit tests (a scripted worker on 127.0.0.1, the docs' resume
# vectors, the generated types against schemas/); its npm pack tarball
# installed into a scratch dir and imported.
dist=$(mktemp -d)
(cd clients/ts; npm test; npm pack --silent --pack-destination "$dist")
ls -l "$dist"
(cd "$dist"; npm install --silent --prefer-offline --no-audit --no-fund ./*.tgz; node --input-type=module -e 'await import("@genui-worker/client")')
rm -rf "$dist"

step "1b/7 format=react modules: tsc --strict, zod against output"
tests/react/run.sh

step "2/7 release wasm build, and the exact upload"
./scripts/build-wasm.sh
# The budget: 2.0 MB gzip for everything, the shipped module and the upload
# wrangler would send. It leaves room for CPU where that buys it (see
# bench-results/wasm.md), locale data and new protocol revisions; every
# change reports its size delta against it. Cloudflare's free plan allows 3 MB.
budget=2000000
check_size() { # <what> <file>
  local raw gz
  raw=$(stat -c %s "$2")
  gz=$(gzip -9 -c "$2" | wc -c)
  echo "$1: $raw bytes raw, $gz bytes gzip (budget $budget)"
  if [ "$gz" -gt "$budget" ]; then
    echo "$1: gzip size $gz exceeds the budget of $budget bytes" >&2
    exit 1
  fi
}
check_size "build/index_bg.wasm" build/index_bg.wasm
# What `wrangler deploy` would upload, built without an account
# (--dry-run), so the size checked is the upload's, not our guess of it.
# A temporary config without [build]: the build above is the artefact.
# node_modules/.bin first in PATH: it holds the node 22 wrangler needs.
upload=$(mktemp -d)
trap 'rm -rf "$upload"' EXIT
sed '/^\[build\]/,/^$/d' wrangler.toml > "$upload/wrangler.toml"
sed -i -e "s#^main = \"build/#main = \"$PWD/build/#" \
  -e "s#^directory = \"./playground#directory = \"$PWD/playground#" "$upload/wrangler.toml"
PATH="$PWD/node_modules/.bin:$PATH" PATH="$PWD/node_modules/.bin:$PATH" node_modules/.bin/wrangler deploy --dry-run --config "$upload/wrangler.toml" --outdir "$upload/out" >"$upload/deploy.log" 2>&1 ||
  { cat "$upload/deploy.log" >&2; exit 1; }
found=0
for f in "$upload"/out/*.wasm; do
  [ -e "$f" ] || continue
  check_size "upload $(basename "$f")" "$f"
  found=1
done
[ "$found" = 1 ] || { echo "wrangler deploy --dry-run wrote no .wasm to $upload/out" >&2; ls -l "$upload/out" >&2; exit 1; }
# The whole upload: the modules (wasm and the JS bundle), gzip each; the
# out dir also holds a README and a source map, which are not uploaded.
total=0
for f in "$upload"/out/*.wasm "$upload"/out/*.js; do total=$((total + $(gzip -9 -c "$f" | wc -c))); done
grep -h "Total Upload" "$upload/deploy.log" || true
echo "upload: $total bytes gzip in all (budget $budget)"
[ "$total" -le "$budget" ] || { echo "upload: $total bytes gzip exceeds the budget of $budget bytes" >&2; exit 1; }

step "3/7 end to end under wrangler dev"
# wrangler runs the [build] command itself; the build above makes it a no-op.
cargo test -p genui-harness --test selftest -- --ignored
cargo test -p genui-harness --test e2e -- --ignored
# The model path against the scripted provider server (OpenAI and Anthropic wire formats).
cargo test -p genui-harness --test e2e-model -- --ignored
# Instructions and the generator registry: the example http generator of docs/operator.md (node) and faults.
cargo test -p genui-harness --test e2e-generators -- --ignored
# Streaming (SSE, AG-UI /v1/agent) with the real clients of tests/agui, on one wrangler dev.
cargo test -p genui-harness --test e2e-stream -- --ignored
# The documentation's requests (README.md, docs/*.md) run as written; answers as shown.
cargo test -p genui-harness --test e2e-docs -- --ignored
# The examples of examples/ (curl, the AG-UI client, the signed webhook, the MCP
# host configurations) and a walkthrough of README.md alone, on one wrangler dev.
cargo test -p genui-harness --test e2e-examples -- --ignored
# Hostile inputs: the deepest value each route builds answers 413 and the
# isolate lives on.
cargo test -p genui-harness --test e2e-hostile -- --ignored
# The JSON Schema Test Suite through the real /v1/submit: every case answered
# as the native core answers it (which the native layer holds to the suite).
cargo test -p genui-harness --test e2e-suite -- --ignored

step "4/7 real renderers in headless Chromium"
(cd tests/browser && npm test)

step "4b/7 MCP: the conformance suite and the SDK clients against /mcp (one wrangler dev)"
tests/mcp/run.sh

step "5/7 bounded fuzzing (cargo-fuzz)"
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  FUZZ_SECONDS="${FUZZ_SECONDS:-60}" ./scripts/fuzz.sh
else
  echo "SKIPPED: fuzzing needs rustup's nightly toolchain, which this machine lacks" >&2
fi

step "6/7 API fuzzing (schemathesis against /openapi.json)"
API_FUZZ_EXAMPLES="${API_FUZZ_EXAMPLES:-25}" ./scripts/api-fuzz.sh

step "7/7 bounded load (wrk) and KV integrity"
./scripts/load.sh "${LOAD_SECONDS:-5}"
