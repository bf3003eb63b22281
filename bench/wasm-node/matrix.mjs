// Summarises the size matrix of scripts/bench-wasm.sh --matrix: for each
// opt-level x wasm-opt build of the node entry, its gzip bytes and the mean
// CPU of a few cases (node, process.cpuUsage).
//
//   node matrix.mjs <rows.json> <out.json>
import { readFileSync, writeFileSync } from 'node:fs';

const [rowsPath, outPath] = process.argv.slice(2);
const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
const rows = JSON.parse(readFileSync(rowsPath, 'utf8')).map((row) => {
  const run = JSON.parse(readFileSync(row.file, 'utf8'));
  const get = (id) => run.results.find((r) => r.id === id);
  const corpus = run.results
    .filter((r) => r.id.startsWith('corpus/') && r.id.endsWith('#pass2') && r.status['200'])
    .map((r) => r.ms[0])
    .sort((a, b) => a - b);
  return {
    opt: row.opt,
    wasmOpt: row.wasmOpt,
    gzip: row.gzip,
    miss50: mean(get('miss/jsonforms/50').ms),
    coldmiss50: mean(get('coldmiss/jsonforms/50').ms),
    hit50: mean(get('hit/jsonforms/50').ms),
    corpusP90: corpus[Math.ceil(0.9 * corpus.length) - 1],
  };
});
writeFileSync(outPath, JSON.stringify({ rows }, null, 1));
