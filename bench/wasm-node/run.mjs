// The core in a bare V8: node runs bench/wasm-node (genui-core's service
// entry points, built like the shipped module) over the inputs of
// `wasm_bench inputs`, and times each call with process.cpuUsage (user +
// system CPU of the whole node process, microseconds: V8's background
// compile and GC threads included).
//
//   node run.mjs times  <pkg dir> <inputs.json> <out.json>
//   node run.mjs memory <pkg dir> <inputs.json> <out.json>
//
// An optional fifth argument, a regular expression, keeps only the cases
// whose id matches (the size matrix times a few).
//
// `times`: every case of the inputs in order, `warmup` calls then `n` timed
// calls each (corpus cases: one call per schema, two passes: the first
// finds the code cold, the second warm). The first call of the fresh module
// is reported on its own.
// `memory`: a fresh module; its linear memory before anything, after 1,
// 100 and 1,000 distinct corpus misses, then after a burst of the largest
// accepted schemas.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [mode, pkgDir, inputsPath, outPath, only] = process.argv.slice(2);
if (!['times', 'memory'].includes(mode) || !outPath) {
  console.error('usage: node run.mjs times|memory <pkg dir> <inputs.json> <out.json>');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const t0 = process.cpuUsage();
const core = require(join(resolve(pkgDir), 'genui_wasm_node.js'));
const loadMs = cpuMs(process.cpuUsage(t0));
const inputs = JSON.parse(readFileSync(inputsPath, 'utf8'));
if (only) inputs.cases = inputs.cases.filter((c) => new RegExp(only).test(c.id) || c.id === 'miss/jsonforms/50');
const encoder = new TextEncoder();
let fresh = 0;

function cpuMs(u) {
  return (u.user + u.system) / 1000;
}

/// One call; its CPU ms, status and hit-ness.
function call(c) {
  fresh += 1;
  const body = encoder.encode(c.body.replaceAll(inputs.placeholder, `#${fresh}`));
  const t = process.cpuUsage();
  const out = c.route === 'submit' ? core.submit(body) : core.generate(body, c.format);
  const ms = cpuMs(process.cpuUsage(t));
  const last = core.lastOutcome();
  return { ms, status: last % 1000, hit: last >= 1000, bytes: out.length };
}

function tally(statuses, status) {
  statuses[status] = (statuses[status] ?? 0) + 1;
}

function times() {
  const results = [];
  const corpus = inputs.cases.filter((c) => c.group === 'corpus');
  const others = inputs.cases.filter((c) => c.group !== 'corpus');
  // The fresh module's first request: a miss of the 50-field form.
  const firstCase = others.find((c) => c.id === 'miss/jsonforms/50');
  const first = call(firstCase);
  for (const c of others) {
    const ms = [];
    const status = {};
    let hits = 0;
    for (let i = 0; i < c.warmup + c.n; i++) {
      const r = call(c);
      if (i < c.warmup) continue;
      ms.push(r.ms);
      tally(status, r.status);
      hits += r.hit ? 1 : 0;
    }
    results.push({ id: c.id, ms, status, hits });
  }
  for (const pass of [1, 2]) {
    for (const c of corpus) {
      const r = call(c);
      const status = {};
      tally(status, r.status);
      results.push({ id: `${c.id}#pass${pass}`, ms: [r.ms], status, hits: r.hit ? 1 : 0 });
    }
  }
  return { driver: 'node', node: process.version, loadMs, first: { id: firstCase.id, ...first }, results };
}

function memory() {
  const corpus = inputs.cases.filter((c) => c.group === 'corpus');
  const largest = inputs.cases.find((c) => c.id === 'worst/largest-schema-under-limits');
  const points = [{ after: 'module instantiated', bytes: core.wasmMemoryBytes() }];
  const marks = new Set([1, 100, 1000]);
  const refused = {};
  for (let i = 1; i <= 1000; i++) {
    const r = call(corpus[(i - 1) % corpus.length]);
    if (r.status !== 200) tally(refused, r.status);
    if (marks.has(i)) points.push({ after: `${i} distinct corpus misses`, bytes: core.wasmMemoryBytes() });
  }
  for (let i = 1; i <= 10; i++) call(largest);
  points.push({ after: 'then 10 distinct misses of the largest accepted schema', bytes: core.wasmMemoryBytes() });
  return { driver: 'node', node: process.version, corpusSchemas: corpus.length, refusedInCorpusRun: refused, points };
}

const out = mode === 'times' ? times() : memory();
// Asked after the run, so the first call still finds the module fresh.
if (!core.metaValidatorsShared()) {
  // Every new schema paid for a meta-schema validator build: these are not
  // the shipped module's figures (vendor/PATCHED.md).
  console.error('run.mjs: jsonschema rebuilds its meta-schema validators on every call');
  process.exit(1);
}
writeFileSync(outPath, JSON.stringify(out, null, 1));
console.error(`run.mjs ${mode}: wrote ${outPath}`);
