// Merges the JSON of scripts/bench-wasm.sh's drivers into bench-results/wasm.md.
//
//   node report.mjs <run dir> <out.md>
//
// <run dir> holds: meta.json (machine, commands, sizes), native.json,
// node.json, node-memory.json, workerd.json, and optionally matrix.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [runDir, outPath] = process.argv.slice(2);
const load = (name) => (existsSync(join(runDir, name)) ? JSON.parse(readFileSync(join(runDir, name), 'utf8')) : null);
const meta = load('meta.json');
const native = load('native.json');
const node = load('node.json');
const nodeMemory = load('node-memory.json');
const workerd = load('workerd.json');
const matrix = load('matrix.json');

const mean = (v) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);
const pct = (v, q) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length, Math.max(1, Math.ceil(q * s.length))) - 1] : NaN;
};
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const mib = (b) => (b / 1048576).toFixed(1);
const byId = (run) => new Map((run?.results ?? []).map((r) => [r.id, r]));
const nat = byId(native);
const nod = byId(node);
const configs = (workerd?.configs ?? []).map((c) => ({ ...c, map: byId(c) }));
const statusOf = (r) => (r ? Object.keys(r.status).join('/') : '-');
const above = (c, r) => (r ? mean(r.ms) - (r.floorMs ?? c.healthzMs) : NaN);

const lines = [];
const out = (s = '') => lines.push(s);

out('# CPU and memory of the shipped wasm (issue 13)');
out();
out(`${meta.date} · ${meta.cpu} · nproc ${meta.nproc} · \`${meta.command}\``);
out();
out(`Shipped module \`build/index_bg.wasm\` (built by \`./scripts/build-wasm.sh\`, the exact artefact served below): ${meta.shipped.raw} bytes raw, ${meta.shipped.gzip} gzip -9. `
  + `Node entry \`bench/wasm-node\` (same core, same profile: opt-level ${meta.nodeEntry.optLevel}, LTO, 1 codegen unit, \`wasm-opt ${meta.nodeEntry.wasmOpt}\`): ${meta.nodeEntry.raw} bytes raw, ${meta.nodeEntry.gzip} gzip.`);
out();
out(meta.note);
out();
out('## Targets');
out();
out('Each target against this run\'s figure in workerd alone (ms of CPU above `/healthz`; the upload budget against the shipped module):');
out();
out('| target | figure | met |');
out('|---|---|---|');
for (const [target, figure, met] of targetRows()) out(`| ${target} | ${figure} | ${met === null ? 'reported' : met ? 'yes' : 'no'} |`);
out();
out('## What each figure is');
out();
out('- **workerd alone** (the figure the targets use): the `workerd` binary itself serving the exact upload (`wrangler deploy --dry-run --outdir`: the bundled `index.js` and the `.wasm`), one worker, no bindings but the `[vars]` of wrangler.toml (so KV is unbound), no wrangler, no Miniflare entry worker, no dev proxy, no inspector (`tests/harness/src/workerd.rs`; ' + (configs.find((c) => c.name === 'alone')?.process ?? '') + '). CPU is read the same way as below, minus the same kind of `/healthz` floor, which here is only workerd\'s HTTP, the workers-rs entry glue and our router (about 0.4 ms, against 3-6 ms under `wrangler dev`, where every request also crosses a second workerd process, the dev proxy and Miniflare\'s entry worker, and every `console.log` is forwarded over the inspector). What remains is our wasm, its JS glue and the V8 work the request causes: the closest local figure to Cloudflare\'s bill.');
out('- **workerd, KV unbound**: `wrangler dev` serving `build/` with a wrangler config that has no `[[kv_namespaces]]`; the shell logs `kv_binding_missing` and carries on, so a miss never reads or writes KV and a hit comes from the isolate\'s memory. CPU = the sum over every thread of the `workerd` processes under wrangler (' + (configs.find((c) => c.name === 'KV unbound')?.process ?? '') + ') of `/proc/<pid>/task/*/schedstat` (ns on a CPU), read before and after each request, **minus the CPU of a `GET /healthz`** (the floor: for each form and worst-input case the median of 40 `/healthz` read just before it, since the floor drifts over a run; for the corpus the mean of 300 after it; workerd\'s HTTP and routing, wrangler\'s proxy worker, the JS glue and our router). What remains is our wasm, its JS glue for a larger body, and V8 work the request causes (GC, tier-up compilation on background threads).');
out('- **workerd, local KV**: the same with Miniflare\'s local KV bound: a miss adds a KV read and a `waitUntil` write (Miniflare\'s KV runs in the same workerd process, so its CPU is counted here).');
out('- **node (bare V8)**: the same core through `bench/wasm-node` (wasm-bindgen, `--target nodejs`), each call timed with `process.cpuUsage` (the node process\'s user + system CPU, V8\'s background threads included). No HTTP, no KV, no Workers runtime.');
out(`- **native**: the same calls natively (\`cargo run --profile bench\`, the release profile's opt-level ${meta.optLevel ?? meta.nodeEntry.optLevel}, no LTO), per-call thread CPU from \`/proc/thread-self/schedstat\`.`);
out('- Kinds: `hit` = the same body again, answered from the isolate\'s memory; `miss` = a new description each call (a new spec, but the same schema, so the memos of schema digest, proof and compiled validator answer: what the earlier bench measured); `coldmiss` = a new description and a new root `$comment` each call, so nothing is remembered; `submit` = an inline-schema submission (validator memo warm after the first).');
out();
out('Figures are means over the timed calls, in ms of CPU per request. Cloudflare bills the isolate thread\'s CPU time of a request; the closest local figure is **workerd alone, above `/healthz`**: the same module in the same runtime with the same glue and nothing of the dev stack. It still slightly over-counts (V8\'s background GC and tier-up threads, which Cloudflare does not bill per request, are summed in). Under `wrangler dev` the dev stack\'s share grows with the size of the bodies, so those columns over-count more for large answers. The node figure is the wasm alone and is the lower bound.');
out();

out('## Forms by kind, size and format');
out();
const head = ['case', 'native', 'node wasm', 'wasm/native'];
for (const c of configs) head.push(`workerd ${c.name} (above healthz)`);
out(`| ${head.join(' | ')} |`);
out(`|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`);
for (const r of native?.results ?? []) {
  if (!/^(hit|miss|coldmiss|submit)\//.test(r.id)) continue;
  const n = mean(r.ms);
  const w = nod.get(r.id) ? mean(nod.get(r.id).ms) : NaN;
  const row = [`\`${r.id}\``, f(n, 3), f(w, 3), f(w / n, 1)];
  for (const c of configs) row.push(f(above(c, c.map.get(r.id))));
  out(`| ${row.join(' | ')} |`);
}
out();
out(`\`/healthz\` itself: ${configs.map((c) => `${f(c.healthzMs)} ms (${c.name}, mean of 300; the per-case floors ranged ${f(Math.min(...c.results.filter((r) => r.floorMs).map((r) => r.floorMs)))}-${f(Math.max(...c.results.filter((r) => r.floorMs).map((r) => r.floorMs)))} ms)`).join(', ')} of workerd CPU per request.`);
out();

out('## The peer corpus (cold misses, one per schema)');
out();
const corpusIds = (native?.results ?? []).filter((r) => r.id.startsWith('corpus/'));
const ok = corpusIds.filter((r) => r.status['200']).map((r) => r.id);
out(`${corpusIds.length} SchemaStore schemas (bench/peer/corpus.py); ${ok.length} answered 200, the others were refused by our limits or proof (the same ones in every driver). Distribution over the answered ones, ms of CPU: the second pass (each schema again, with a new \`$comment\`: code warm), then the first pass (each schema's first run in a young isolate, while V8 still compiles and tiers up the module's functions):`);
out();
out('| driver | p50 | p90 | p99 | max |');
out('|---|---:|---:|---:|---:|');
const dist = (label, values) => out(`| ${label} | ${f(pct(values, 0.5))} | ${f(pct(values, 0.9))} | ${f(pct(values, 0.99))} | ${f(pct(values, 1))} |`);
dist('native', ok.map((id) => nat.get(id).ms[0]));
dist('node wasm', ok.map((id) => nod.get(`${id}#pass2`)?.ms[0]).filter(Number.isFinite));
for (const c of configs) {
  dist(`workerd ${c.name}, above healthz`, ok.map((id) => c.map.get(`${id}#pass2`)).filter(Boolean).map((r) => r.ms[0] - c.healthzMs));
}
// The first pass: each schema's first run in a young isolate (code still
// being compiled and tiered up): what a freshly started worker sees.
dist('node wasm, first pass', ok.map((id) => nod.get(`${id}#pass1`)?.ms[0]).filter(Number.isFinite));
for (const c of configs) {
  dist(`workerd ${c.name}, above healthz, first pass`, ok.map((id) => c.map.get(`${id}#pass1`)).filter(Boolean).map((r) => r.ms[0] - c.healthzMs));
}
out();
const ratios = ok.map((id) => (nod.get(`${id}#pass2`)?.ms[0] ?? NaN) / nat.get(id).ms[0]).filter(Number.isFinite);
out(`wasm/native per schema (node pass 2 / native): p50 ${f(pct(ratios, 0.5), 1)}, p90 ${f(pct(ratios, 0.9), 1)}.`);
out();

out('## Worst inputs (issue 13, "Bad input")');
out();
const wh = ['input', 'status', 'native', 'node wasm'];
for (const c of configs) wh.push(`workerd ${c.name} (above healthz)`);
out(`| ${wh.join(' | ')} |`);
out(`|${wh.map((_, i) => (i > 1 ? '---:' : '---')).join('|')}|`);
for (const r of native?.results ?? []) {
  if (!r.id.startsWith('worst/')) continue;
  const row = [`\`${r.id.slice(6)}\``, statusOf(r), f(mean(r.ms), 3), f(mean(nod.get(r.id)?.ms ?? []), 3)];
  for (const c of configs) row.push(f(above(c, c.map.get(r.id))));
  out(`| ${row.join(' | ')} |`);
}
out();
out('A 4xx status is the early refusal with its `dgui_error` code (past a limit: 5,001 properties, 1,001 enum values, a 33-hop `$ref` chain; a backreference pattern; data that fails `^(a+)+$`).');
out();

out('## A fresh isolate\'s first request');
out();
for (const c of configs) {
  const isolate = (ms) => (ms ? ` (the isolate's thread alone, the closest to what the platform bills: ${f(ms)} ms; the rest is V8's background compilation and tier-up)` : '');
  out(`- workerd ${c.name}: the first \`/v1/generate\` (a miss of the 50-field form, after only \`/healthz\`): ${f(c.first.cpuMs)} ms CPU${isolate(c.first.isolateMs)}, ${f(c.first.wallMs)} ms wall; warm, the same kind costs ${f(mean(c.map.get('miss/jsonforms/50')?.ms ?? []) )} ms CPU.`);
  if (c.startupMs !== undefined) out(`  Start-up, before any request (the process until it first answered \`/healthz\`: workerd's own start, parsing and compiling the script, the module's start with its warm-up): ${f(c.startupMs)} ms CPU${isolate(c.startupIsolateMs)}.`);
}
if (node) out(`- node: loading and instantiating the module ${f(node.loadMs)} ms CPU; its first call (the same miss) ${f(node.first.ms)} ms; warm ${f(mean(nod.get('miss/jsonforms/50')?.ms ?? []))} ms.`);
out();

out('## Wasm linear memory');
out();
out('| after | ' + configs.map((c) => `workerd ${c.name}`).join(' | ') + (nodeMemory ? ' | node |' : ' |'));
out('|---|' + configs.map(() => '---:').join('|') + (nodeMemory ? '|---:|' : '|'));
const points = configs[0]?.memory ?? [];
for (let i = 0; i < points.length; i++) {
  const row = [points[i].after, ...configs.map((c) => `${mib(c.memory[i]?.bytes ?? NaN)} MiB`)];
  if (nodeMemory) {
    const match = nodeMemory.points.find((p) => p.after === points[i].after || (i === 0 && p.after === 'module instantiated'));
    row.push(match ? `${mib(match.bytes)} MiB` : '-');
  }
  out(`| ${row.join(' | ')} |`);
}
out();
out('workerd: `wasmMemoryBytes` of `GET /healthz` (`memory_size(0) * 65536`, read inside the isolate). The memory run is a fresh isolate: first request, then the corpus misses (each schema twice, with a new `$comment` the second time, 1,000 in all), then, after the timed cases, 10 misses of the largest accepted schema. node: the same sequence in a fresh process, without the timed cases in between.');
out();

if (matrix) {
  out('## Size against CPU (node entry)');
  out();
  out('| opt-level | wasm-opt | gzip bytes | miss 50 | coldmiss 50 | hit 50 | corpus p90 |');
  out('|---|---|---:|---:|---:|---:|---:|');
  for (const m of matrix.rows) out(`| ${m.opt} | ${m.wasmOpt} | ${m.gzip} | ${f(m.miss50, 3)} | ${f(m.coldmiss50, 3)} | ${f(m.hit50, 3)} | ${f(m.corpusP90)} |`);
  out();
  out('Node CPU in ms (process.cpuUsage), the size is the node entry\'s module (gzip -9). In this filtered run `miss 50` is the first case, so it still carries V8\'s tier-up; `coldmiss 50` and the corpus p90 are the comparable columns.'
    + (matrix.rows.length < 8 ? ` Only ${matrix.rows.length} of the 8 combinations were measured (opt-level ${[...new Set(matrix.rows.map((m) => m.opt))].join(', ')}); the run was stopped for time.` : ''));
  out();
}

out('## Reproduce');
out();
for (const c of meta.commands) out(`- \`${c}\``);
out();
out('Raw per-call figures: `bench-results/wasm/*.json`.');
writeFileSync(outPath, lines.join('\n') + '\n');
console.error(`report.mjs: wrote ${outPath}`);

// The targets of the wasm bench, each as [target, this run's figure, met
// (null: reported, no bound)], from the workerd-alone configuration.
function targetRows() {
  const alone = configs.find((c) => c.name === 'alone');
  if (!alone) return [];
  const formats = ['jsonforms', 'rjsf', 'lmui', 'a2ui', 'react'];
  const per = (kind) => formats.map((fm) => [fm, above(alone, alone.map.get(`${kind}/${fm}/50`))]);
  const list = (pairs) => pairs.map(([fm, ms]) => `${fm} ${f(ms)}`).join(', ');
  const worst = (pairs) => Math.max(...pairs.map(([, ms]) => ms));
  const corpus = (native?.results ?? [])
    .filter((r) => r.id.startsWith('corpus/') && r.status['200'])
    .map((r) => alone.map.get(`${r.id}#pass2`))
    .filter(Boolean)
    .map((r) => r.ms[0] - alone.healthzMs);
  const memoryAt = (prefix) => alone.memory.find((m) => m.after.startsWith(prefix))?.bytes ?? NaN;
  const peak = Math.max(...alone.memory.map((m) => m.bytes));
  const hits = per('hit');
  const cold = per('coldmiss');
  return [
    ['upload: the shipped module <= 2.0 MB gzip', `${meta.shipped.gzip} bytes`, meta.shipped.gzip <= 2000000],
    ['first generate of a fresh isolate <= 10 ms (all threads; the isolate\'s own)', `${f(alone.first.cpuMs)} ms; ${f(alone.first.isolateMs)} ms`, alone.first.cpuMs <= 10],
    ['start-up of a fresh isolate (bounded apart; 1 s on the platform)', alone.startupMs === undefined ? '-' : `${f(alone.startupMs)} ms; ${f(alone.startupIsolateMs)} ms`, null],
    ['corpus, one new schema per request: p90 <= 10 ms', `${f(pct(corpus, 0.9))} ms`, pct(corpus, 0.9) <= 10],
    ['corpus: p99', `${f(pct(corpus, 0.99))} ms`, null],
    ['50-field cold miss <= 3 ms in every format', list(cold), worst(cold) <= 3],
    ['50-field hit <= 0.5 ms in every format', list(hits), worst(hits) <= 0.5],
    ['memory after 1,000 distinct misses <= 48 MiB', `${mib(memoryAt('1000 distinct'))} MiB`, memoryAt('1000 distinct') <= 48 * 1048576],
    ['memory never above 64 MiB', `${mib(peak)} MiB at most`, peak <= 64 * 1048576],
  ];
}
