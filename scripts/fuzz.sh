#!/usr/bin/env bash
# Bounded coverage-guided fuzzing of genui-core with cargo-fuzz (libFuzzer).
# Needs rustup's nightly toolchain (used for fuzzing only). Each target runs
# FUZZ_SECONDS (default 60), seeded from the test fixtures; any crash fails.
# FUZZ_TARGETS picks targets (default: generate submit hash check).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/env.sh

seconds="${FUZZ_SECONDS:-60}"
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "fuzz: rustup nightly is needed (rustup toolchain install nightly)" >&2
  exit 1
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz (once)" >&2
  cargo install cargo-fuzz --version 0.13.2 --locked --root "$GENUI_TOOLS" --quiet
fi

corpus=target/fuzz-corpus
rm -rf "$corpus"
mkdir -p "$corpus"/{generate,submit,hash,check}
fixtures=crates/genui-core/tests/fixtures
for f in "$fixtures"/generate/*.json "$fixtures"/errors/*.json; do
  name=$(basename "$f" .json)
  cp "$f" "$corpus/generate/$name"
  cp "$f" "$corpus/hash/$name"
  # A submission of the fixture's own data against its own schema.
  python3 - "$f" > "$corpus/submit/$name" <<'PY'
import json, sys
args = json.load(open(sys.argv[1]))
args = args.get("arguments", args) if isinstance(args, dict) else {}
print(json.dumps({"output": args.get("output", {}), "data": args.get("data", {})}))
PY
done
# Checker seeds: a generated plan with its schema, from the core's example.
for f in "$fixtures"/generate/seed-*.json "$fixtures"/generate/invoice-line-items.json; do
  name=$(basename "$f" .json)
  echo "[{\"root\":{\"type\":\"vertical\",\"elements\":[]}}, $(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["output"]))' "$f")]" > "$corpus/check/$name"
done

cd fuzz
total=0
for target in ${FUZZ_TARGETS:-generate submit hash check}; do
  echo "==> fuzz $target for ${seconds}s"
  log="../target/fuzz-$target.log"
  if ! cargo +nightly fuzz run "$target" "../$corpus/$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $target found a crash (artifacts under fuzz/artifacts/$target)" >&2
    exit 1
  fi
  runs=$(sed -nE 's/^Done ([0-9]+) runs.*/\1/p' "$log" | tail -1)
  echo "    ${runs:-?} inputs, no crash"
  total=$((total + ${runs:-0}))
done
echo "fuzz: $total inputs in all, no crash"
