#!/usr/bin/env bash
# CPU benchmarks of the sans-IO core, natively, with criterion
# (crates/genui-core/benches/), then a Markdown summary of the medians
# against the issue's targets in bench-results/criterion.md.
#
#   ./scripts/bench-core.sh              # every bench, a few minutes
#   ./scripts/bench-core.sh service/hit  # only ids matching a regex
#
# Arguments go to criterion (a filter, or e.g. --measurement-time 10 on a
# quiet machine). Only benches run by this invocation are summarised.
# The bench profile is release's opt-level ("z", what ships) without LTO:
# see [profile.bench] in Cargo.toml. For opt-level 3 (a full rebuild):
#   CARGO_PROFILE_BENCH_OPT_LEVEL=3 ./scripts/bench-core.sh
set -euo pipefail
cd "$(dirname "$0")/.."

command -v jq >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null; }

target_dir="${CARGO_TARGET_DIR:-target}"
results="$target_dir/criterion"
out="bench-results/criterion.md"
command_line="cargo bench -p genui-core --benches${*:+ -- $*}"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

# Criterion rewrites new/estimates.json for each bench it runs; anything
# older than this stamp is from an earlier run and is left out.
mkdir -p "$results"
stamp="$(mktemp "$results/.stamp.XXXXXX")"
trap 'rm -f "$stamp"' EXIT

cargo bench -p genui-core --benches -- "$@"

# One TSV row per bench run now: sort key, id, median and its 95% bounds (ns).
stage_order() {
    case "$1" in
        hash) echo 1 ;; prove) echo 2 ;; generate) echo 3 ;; check) echo 4 ;;
        render) echo 5 ;; submit) echo 6 ;; service) echo 7 ;; hit_parts) echo 8 ;; *) echo 9 ;;
    esac
}
size_order() {
    case "$1" in
        */small) echo 1 ;; */medium) echo 2 ;; */large) echo 3 ;; *) echo 4 ;;
    esac
}
rows="$(
    find "$results" -path '*/new/estimates.json' -newer "$stamp" | while read -r estimates; do
        dir="$(dirname "$estimates")"
        id="$(jq -r .full_id "$dir/benchmark.json")"
        function="${id%/*}"
        jq -r --arg key "$(stage_order "${id%%/*}") ${function} $(size_order "$id")" --arg id "$id" \
            '[$key, $id, .median.point_estimate, .median.confidence_interval.lower_bound,
              .median.confidence_interval.upper_bound] | @tsv' "$estimates"
    done | sort -t$'\t' -k1,1
)"
[ -n "$rows" ] || { echo "no benchmark ran (filter matched nothing?)" >&2; exit 1; }

# The issue's targets: warm CPU per cache hit <= 1 ms; a deterministic
# generation of a 50-field form <= 2 ms (shown for the generator alone and
# for the whole miss, which adds proof, checks, rendering and the spec).
table="$(printf '%s\n' "$rows" | awk -F'\t' '
    function human(ns) {
        if (ns < 1e3) return sprintf("%.0f ns", ns)
        if (ns < 1e6) return sprintf("%.1f µs", ns / 1e3)
        return sprintf("%.2f ms", ns / 1e6)
    }
    function verdict(ns, limit_ns, label) {
        return sprintf("%s %s", ns <= limit_ns ? "✅" : "❌", label)
    }
    {
        id = $2; target = ""
        if (id ~ /^service\/hit(_kv|_cold)?\//) target = verdict($3, 1e6, "hit ≤ 1 ms")
        if (id == "generate/medium") target = verdict($3, 2e6, "50-field generation ≤ 2 ms")
        if (id == "service/miss/medium") target = verdict($3, 2e6, "50-field generation ≤ 2 ms (whole miss)")
        printf "| `%s` | %s | %s – %s | %s |\n", id, human($3), human($4), human($5), target
    }')"

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
mkdir -p "$(dirname "$out")"
cat >"$out" <<EOF
# Core CPU benchmarks (criterion)

Native medians of the sans-IO core (\`crates/genui-core/benches/\`), per
operation. Schemas: \`small\` 5 flat fields, \`medium\` 50 fields (nested
objects, arrays of objects), \`large\` 500 fields (10 sections, 3 levels,
\`\$defs\` reused 10-20 times); see \`benches/support/mod.rs\`. Requests
pre-fill every field. The worker runs the same code as wasm, which is
typically slower than native: read these as a lower bound.

- Date: $(date -u +%Y-%m-%dT%H:%MZ), commit \`$(git rev-parse --short HEAD)\`$(git diff --quiet HEAD -- crates/genui-core || echo ' (with uncommitted core changes)')
- Machine: $(nproc) CPUs, ${cpu:-unknown CPU}; load average before the run: ${load_before}
- Toolchain: $(rustc --version)
- Profile: \`bench\` = opt-level \`${CARGO_PROFILE_BENCH_OPT_LEVEL:-$(sed -n '/^\[profile.release\]/,/^\[/s/^opt-level = //p' Cargo.toml | tr -d '"')}\` without LTO (Cargo.toml; \`CARGO_PROFILE_BENCH_OPT_LEVEL\` overrides)
- Command: \`./scripts/bench-core.sh${*:+ $*}\` (runs \`${command_line}\`)

| bench | median | 95% CI of the median | target |
|---|---|---|---|
${table}

Ids: \`hash\` cache key (JCS + SHA-256); \`prove\` schema proof and validator
compile; \`generate\` deterministic plan; \`check\` plan checker;
\`render/<format>\` one compiler, \`render/contract\` the response contract
check; \`submit/{valid,invalid}\` a submission by \`specHash\` (memoised
validator), \`submit/inline\` with the schema inline; \`service/miss\`
request bytes to JSON Forms response bytes with nothing cached;
\`service/hit\` a warm hit (spec and validator remembered by the isolate,
no KV read), \`service/hit_kv\` a hit parsed from the cached spec text
(SPEC_MEMORY_BYTES=0), \`service/hit_cold\` a hit parsed and whose
validator is compiled first; \`hash_fresh\` the key of a form the isolate
has not seen (RFC 8785 runs);
\`hit_parts\` pieces of a hit.
EOF
echo "wrote $out"
cat "$out"
