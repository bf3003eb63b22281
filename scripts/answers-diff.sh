#!/usr/bin/env bash
# Before/after answer diff (issue 14): every fixture request and the peer
# corpus (~480 SchemaStore schemas) through genui-core in every format, at a
# base revision and at the working tree; the diff must be empty.
#
#   ./scripts/answers-diff.sh [base rev]     (default: 9921ca1, before issue 14)
#
# The base is checked out with `git worktree add` into a temporary directory
# and answered by its own examples/answers.rs (or, for a base older than
# that example, by the first version of it, which only uses the names every
# such base exports). The working tree's run reads the base's stored specs
# for its cache hits and submissions, so a stored-format change shows too.
# Answers land in target/answers/{base,head} (the base's are reused while
# the base revision stays the same); needs python3 + pip for the
# corpus on the first run (bench/peer/corpus.py, downloaded into target/).
# Answers hold no clocks or request ids (the shell adds those), so nothing
# is filtered out of the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
base_rev=${1:-9921ca1}
out=$root/target/answers
corpus=$root/target/peer-corpus
[ -f "$corpus/manifest.json" ] || python3 bench/peer/corpus.py .

# Each side builds in a target dir of its own: with one shared dir, cargo
# may find the head's units fresh and run the example binary the base's
# build last linked, and the diff then compares the base with itself. The
# base's dir is kept between runs, so its dependencies build once.
base_target=$root/target/answers-base-build
head_target=$root/target
base_hash=$(git rev-parse --verify "$base_rev^{commit}")
# The base's answers are kept between runs (they cannot change).
if [ "$(cat "$out/base.rev" 2>/dev/null)" != "$base_hash" ]; then
  tmp=$(mktemp -d)
  cleanup() { git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
  trap cleanup EXIT
  git worktree add --detach --quiet "$tmp/base" "$base_hash"
  example=crates/genui-core/examples/answers.rs
  if [ ! -f "$tmp/base/$example" ]; then
    first=$(git log --diff-filter=A --format=%H -- "$example" | tail -n 1)
    if [ -n "$first" ]; then git show "$first:$example" >"$tmp/base/$example"; else cp "$example" "$tmp/base/$example"; fi
  fi
  rm -rf "$out" && mkdir -p "$out"
  (cd "$tmp/base" && CARGO_TARGET_DIR=$base_target cargo run --quiet -p genui-core --example answers -- "$out/base" "$corpus")
  echo "$base_hash" >"$out/base.rev"
fi
rm -rf "$out/head"
CARGO_TARGET_DIR=$head_target cargo run --quiet -p genui-core --example answers -- "$out/head" "$corpus" --cached-from "$out/base"
if diff -r "$out/base" "$out/head" >"$out/diff.txt"; then
  echo "answers-diff: no difference from $base_rev ($(find "$out/head" -name '*.txt' | wc -l) requests x 5 formats)"
else
  echo "answers-diff: answers differ from $base_rev ($(grep -c '^diff ' "$out/diff.txt" || true) files); see $out/diff.txt" >&2
  head -n 40 "$out/diff.txt" >&2
  exit 1
fi
