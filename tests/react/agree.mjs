// Agreement of each format=react module's zod schema with its `output`
// schema, ajv (with ajv-formats) as the oracle.
//
// For every case in out/ (written by the react_modules example): instances
// `output` accepts (the answer's initialData, json-schema-faker samples),
// and mutations of them `output` rejects (keys dropped or added, values
// swapped for other types, emptied, stretched, duplicated). Each goes
// through the module's exported zod schema. The layer fails when zod
// accepts a mutation `output` rejects at a keyword the module did not
// declare unenforced (meta.warnings); zod rejecting a valid instance is
// reported (the module is stricter there) but does not fail.
//
//   node agree.mjs [report.md]

import { build } from "esbuild"
import { generateSync } from "json-schema-faker"
import Ajv from "ajv"
import Ajv2019 from "ajv/dist/2019.js"
import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const here = new URL(".", import.meta.url).pathname
const out = join(here, "out")
const report = process.argv[2]
const SAMPLES = 40
const MAX_MUTATIONS = 400

const names = readdirSync(out).filter((f) => f.endsWith(".tsx")).map((f) => f.slice(0, -4)).sort()
await build({
  entryPoints: names.map((n) => join(out, `${n}.tsx`)),
  outdir: join(out, "js"),
  outExtension: { ".js": ".mjs" },
  format: "esm",
  jsx: "automatic",
  logLevel: "error",
})

function oracle(schema) {
  const draft = String(schema.$schema ?? "")
  const options = { strict: false, allErrors: true, validateFormats: true, logger: false }
  const ajv = /draft-0[67]|draft-04/.test(draft) ? new Ajv(options) : /2019-09/.test(draft) ? new Ajv2019(options) : new Ajv2020(options)
  addFormats(ajv)
  return ajv.compile(schema)
}

const ANNOTATIONS = new Set([
  "title", "description", "default", "examples", "readOnly", "writeOnly", "deprecated", "$comment", "$schema", "$id", "$anchor",
  "$defs", "definitions", "properties", "patternProperties", "items", "prefixItems", "additionalItems", "allOf", "anyOf", "oneOf",
  "then", "else", "dependentSchemas", "x-order", "discriminator", "contentMediaType", "contentEncoding",
])

// Assertion keywords of a schema, by pointer (subschemas walked).
function keywords(schema, at = "", acc = []) {
  if (Array.isArray(schema)) schema.forEach((s, i) => keywords(s, `${at}/${i}`, acc))
  else if (schema && typeof schema === "object") {
    for (const [k, v] of Object.entries(schema)) {
      const here = `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`
      if (!ANNOTATIONS.has(k) && !(k === "$ref")) acc.push(here)
      if (["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"].includes(k) && v && typeof v === "object") {
        for (const [name, sub] of Object.entries(v)) keywords(sub, `${here}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`, acc)
      } else if (typeof v === "object" && !["enum", "const", "required", "default", "examples", "type", "dependentRequired"].includes(k)) {
        keywords(v, here, acc)
      }
    }
  }
  return acc
}

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)))

function paths(value, at = [], acc = []) {
  acc.push(at)
  if (acc.length > 200) return acc
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], acc))
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) paths(v, [...at, k], acc)
  return acc
}

function setAt(root, path, fn) {
  if (path.length === 0) return fn(root)
  const copy = clone(root)
  let parent = copy
  for (const step of path.slice(0, -1)) parent = parent[step]
  const last = path[path.length - 1]
  const next = fn(parent[last])
  if (next === DELETE) {
    if (Array.isArray(parent)) parent.splice(last, 1)
    else delete parent[last]
  } else parent[last] = next
  return copy
}

const DELETE = Symbol("delete")
const REPLACEMENTS = [
  () => DELETE,
  () => null,
  () => "",
  () => "x".repeat(300),
  () => "not valid ✗",
  () => -1,
  () => 0.5,
  () => 1e9,
  () => true,
  () => ({}),
  () => [],
  (v) => (typeof v === "string" ? v + "😀" : v),
  (v) => (typeof v === "string" ? v.slice(0, 1) : v),
  (v) => (Array.isArray(v) && v.length ? [...v, v[0]] : v),
  (v) => (Array.isArray(v) ? [...v, ...v, ...v, ...v, ...v, ...v, ...v, ...v, ...v, ...v, ...v] : v),
  (v) => (v && typeof v === "object" && !Array.isArray(v) ? { ...v, zzExtra: 1 } : v),
  (v) => (typeof v === "number" ? v + 0.25 : v),
  (v) => (typeof v === "number" ? -v - 1 : v),
]

function mutations(valid) {
  const acc = []
  for (const instance of valid) {
    for (const path of paths(instance)) {
      for (const replace of REPLACEMENTS) {
        const mutated = setAt(instance, path, replace)
        if (mutated !== undefined) acc.push(mutated)
      }
    }
  }
  return acc
}

const rows = []
let failures = 0
for (const name of names) {
  const c = JSON.parse(readFileSync(join(out, `${name}.case.json`), "utf8"))
  const module = await import(pathToFileURL(join(out, "js", `${name}.mjs`)).href)
  const key = Object.keys(module).find((k) => k.endsWith("Schema") && k !== "FormSchema")
  const zod = module[key]
  let validate
  try {
    validate = oracle(c.output)
  } catch (error) {
    // ajv compiles patterns as JavaScript does; the worker refuses a
    // pattern that is not ECMA-262 (issue 17), so this only reports a
    // schema ajv itself cannot compile; the row says so.
    rows.push({ name, note: `no oracle: ${error.message.split("\n")[0]}`, valid: 0, acceptedValid: 0, invalid: 0, rejectedInvalid: 0, lax: 0, undeclared: 0, keywords: 0, enforced: 0 })
    continue
  }
  const warned = c.warnings.filter((w) => w.code === "zod_unenforced").map((w) => w.pointer)
  const seen = new Set()
  const valid = []
  const candidates = [c.initialData]
  for (let seed = 1; seed <= SAMPLES; seed++) {
    try {
      candidates.push(generateSync(c.output, { seed, alwaysFakeOptionals: seed % 2 === 0, maxItems: 3, maxDepth: 4, refDepthMax: 3 }))
    } catch {
      // json-schema-faker cannot sample every schema; the others still count.
    }
  }
  for (const v of candidates) {
    const text = JSON.stringify(v)
    if (v !== undefined && !seen.has(text) && validate(v)) {
      seen.add(text)
      valid.push(v)
    }
  }
  const invalid = []
  for (const m of mutations(valid)) {
    const text = JSON.stringify(m)
    if (invalid.length >= MAX_MUTATIONS || seen.has(text)) continue
    seen.add(text)
    if (!validate(m)) invalid.push({ value: m, errors: validate.errors })
  }
  const acceptedValid = valid.filter((v) => zod.safeParse(v).success).length
  let rejectedInvalid = 0
  const lax = []
  for (const { value, errors } of invalid) {
    if (!zod.safeParse(value).success) {
      rejectedInvalid++
      continue
    }
    const declared = errors.some((e) => warned.some((p) => e.schemaPath.slice(1).startsWith(p) || p.startsWith(e.schemaPath.slice(1))))
    lax.push({ value, declared, at: errors.map((e) => e.schemaPath).join(" ") })
  }
  const undeclared = lax.filter((l) => !l.declared)
  failures += undeclared.length
  const all = keywords(c.output)
  const unenforced = all.filter((k) => warned.some((p) => k === p || k.startsWith(`${p}/`)))
  rows.push({ name, valid: valid.length, acceptedValid, invalid: invalid.length, rejectedInvalid, lax: lax.length, undeclared: undeclared.length, keywords: all.length, enforced: all.length - unenforced.length })
  for (const l of undeclared.slice(0, 3)) console.error(`${name}: zod accepts ${JSON.stringify(l.value).slice(0, 300)} which output rejects at ${l.at}`)
}

const sum = (k) => rows.reduce((a, r) => a + r[k], 0)
const pct = (a, b) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(1)} %`)
const lines = [
  "# format=react: zod schema vs `output`",
  "",
  "Produced by `tests/react/agree.mjs` (run by `./scripts/test.sh`, layer `react`): for every",
  "fixture form, instances `output` accepts (the answer's `initialData` and json-schema-faker",
  `samples, ${SAMPLES} seeds) and up to ${MAX_MUTATIONS} mutations of them that \`output\` rejects, each run through the`,
  "module's exported zod schema in node. Oracle: ajv 8 with ajv-formats (draft by `$schema`).",
  "\"Lax\" is a mutation zod accepts although `output` rejects it; \"undeclared\" is one the module",
  "did not name in its top comment and `meta.warnings` (target 0). Keywords: assertion keywords",
  "of `output` and the share the module enforces.",
  "",
  `Totals over ${rows.length} forms: valid accepted ${sum("acceptedValid")}/${sum("valid")} (${pct(sum("acceptedValid"), sum("valid"))}), invalid rejected ${sum("rejectedInvalid")}/${sum("invalid")} (${pct(sum("rejectedInvalid"), sum("invalid"))}), lax ${sum("lax")}, undeclared lax ${sum("undeclared")}, keywords enforced ${sum("enforced")}/${sum("keywords")} (${pct(sum("enforced"), sum("keywords"))}).`,
  "",
  "| form | valid accepted | invalid rejected | lax | undeclared | keywords enforced |",
  "|---|---|---|---|---|---|",
  ...rows.map((r) =>
    r.note
      ? `| ${r.name} | ${r.note} | | | | |`
      : `| ${r.name} | ${r.acceptedValid}/${r.valid} | ${r.rejectedInvalid}/${r.invalid} | ${r.lax} | ${r.undeclared} | ${r.enforced}/${r.keywords} (${pct(r.enforced, r.keywords)}) |`,
  ),
  "",
]
if (report) writeFileSync(report, lines.join("\n"))
console.log(lines.slice(10, 11).join("\n"))
if (failures > 0) {
  console.error(`react-zod: ${failures} mutation(s) accepted by zod but rejected by output, not declared`)
  process.exit(1)
}
