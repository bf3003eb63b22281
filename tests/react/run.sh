#!/usr/bin/env bash
# The format=react toolchain layer (scripts/test.sh), bounded to a few minutes:
#  1. writes the module of every fixture form (crates/genui-core/tests/fixtures/generate)
#     and of tests/react/fixtures (hostile text) with the react_modules example: no worker;
#  2. typechecks them all in one `tsc --strict --noEmit` run against the pinned packages;
#  3. runs each module's zod schema against instances `output` accepts and mutations it
#     rejects (agree.mjs, ajv as the oracle) and writes bench-results/react-zod.md.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
rm -rf out && mkdir -p out
(cd ../.. && cargo run --quiet -p genui-core --example react_modules -- tests/react/out \
  crates/genui-core/tests/fixtures/generate/*.json tests/react/fixtures/*.json)
count=$(ls out/*.tsx | wc -l)
echo "react: $count modules written"
timeout 300 npx tsc -p .
echo "react: $count modules typecheck under tsc --strict"
# The committed report (bench-results/react-zod.md) is written on purpose
# with REACT_REPORT=../../bench-results/react-zod.md; a test run keeps its own.
timeout 300 node agree.mjs "${REACT_REPORT:-out/react-zod.md}"
