// Theirs: @jsonforms/core's `Generate.uiSchema` over the corpus.
//
// Usage: node bench/peer/jsonforms.mjs <corpus dir> <run dir>
//
// For each schema of <corpus dir>/manifest.json (parsed once, outside the
// timing, as ours is), times `Generate.uiSchema(schema)` with timing.mjs's
// method and writes <run dir>/theirs.json: one record per schema with `id`,
// `ns` (median per call), `reps`, `error` (the exception's message when it
// throws; then no timing), and the produced uiSchema under
// <run dir>/theirs-ui/<id>.json for report.mjs to measure. The same again
// for the full-depth form JSON Forms' renderers arrive at (expand.mjs):
// `fullNs`, `fullError`, <run dir>/theirs-full-ui/<id>.json.

import { Generate } from "@jsonforms/core";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { medianNs } from "./timing.mjs";
import { expandLikeRenderers } from "./expand.mjs";

const [corpusDir, runDir] = process.argv.slice(2);
if (!corpusDir || !runDir) {
  console.error("usage: node jsonforms.mjs <corpus dir> <run dir>");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(corpusDir, "manifest.json"), "utf8"));
const uiDir = join(runDir, "theirs-ui");
const fullDir = join(runDir, "theirs-full-ui");
mkdirSync(uiDir, { recursive: true });
mkdirSync(fullDir, { recursive: true });

// Results are kept here so the engine cannot drop calls whose value is unused.
let sink;

const results = manifest.schemas.map((entry) => {
  const schema = JSON.parse(readFileSync(join(corpusDir, entry.file), "utf8"));
  let uiSchema;
  try {
    uiSchema = Generate.uiSchema(schema);
  } catch (e) {
    return { id: entry.id, error: String(e?.message ?? e).slice(0, 200) };
  }
  writeFileSync(join(uiDir, `${entry.id}.json`), JSON.stringify(uiSchema));
  const { ns, reps } = medianNs(() => (sink = Generate.uiSchema(schema)));
  return { id: entry.id, ns, reps, ...full(entry, schema) };
});

/** The full-depth variant: timing, or the exception it threw. */
function full(entry, schema) {
  let uiSchema;
  try {
    uiSchema = expandLikeRenderers(schema);
  } catch (e) {
    return { fullError: String(e?.message ?? e).slice(0, 200) };
  }
  writeFileSync(join(fullDir, `${entry.id}.json`), JSON.stringify(uiSchema));
  return { fullNs: medianNs(() => (sink = expandLikeRenderers(schema))).ns };
}

void sink;
writeFileSync(join(runDir, "theirs.json"), JSON.stringify({ generator: "@jsonforms/core Generate.uiSchema", node: process.version, results }));
const failed = results.filter((r) => r.error).length;
console.log(`theirs: ${results.length} schemas, ${failed} failed -> ${join(runDir, "theirs.json")}`);
