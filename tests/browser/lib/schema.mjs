// JSON Schema helpers for the runner: local $ref resolution, a normalised
// view of a field's schema, the value a person would type for it, and
// validation of the final data with ajv (2020-12 or draft-07, by `$schema`).
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';

const DRAFT_2020 = /json-schema\.org\/draft\/2020-12\/schema/;

/** RFC 6901 decoding of one pointer token. */
export const decodeToken = (t) => t.replace(/~1/g, '/').replace(/~0/g, '~');

/** Follows a local JSON pointer ("#/..." or "#") inside `root`. */
export function pointer(root, ref) {
  if (typeof ref !== 'string' || !ref.startsWith('#')) {
    throw new Error(`only local $ref is supported here, got ${JSON.stringify(ref)}`);
  }
  const path = ref.slice(1);
  if (path === '' || path === '/') return root;
  let cur = root;
  for (const raw of path.split('/').slice(1)) {
    const t = decodeURIComponent(decodeToken(raw));
    if (cur == null || !(t in cur)) throw new Error(`$ref ${ref} points nowhere (at ${t})`);
    cur = cur[t];
  }
  return cur;
}

/** Follows $ref chains (sibling keywords of $ref are merged under the target). */
export function deref(schema, root, seen = new Set()) {
  let cur = schema;
  while (cur && typeof cur === 'object' && typeof cur.$ref === 'string') {
    if (seen.has(cur.$ref)) break;
    seen.add(cur.$ref);
    const { $ref, ...rest } = cur;
    const target = pointer(root, $ref);
    cur = Object.keys(rest).length ? { ...target, ...rest } : target;
  }
  return cur;
}

const isNullSchema = (s, root) => {
  const d = deref(s, root);
  return d && (d.type === 'null' || (Array.isArray(d.enum) && d.enum.length === 1 && d.enum[0] === null));
};

/**
 * A normalised view of a field schema: $ref followed, allOf merged, the
 * nullable idioms (`anyOf/oneOf [X, null]`, type arrays with "null")
 * unwrapped. `nullableCombinator` says the field was an anyOf/oneOf with a
 * null branch (renderers that do not unwrap it show a combinator).
 */
export function effective(schema, root) {
  let s = deref(schema ?? {}, root);
  if (!s || typeof s !== 'object') return { schema: s ?? {}, nullable: false };
  let nullable = false;
  let nullableCombinator = false;
  if (Array.isArray(s.allOf)) {
    const merged = { ...s };
    delete merged.allOf;
    for (const part of s.allOf) {
      const p = effective(part, root).schema;
      merged.type = merged.type ?? p.type;
      merged.properties = { ...(p.properties || {}), ...(merged.properties || {}) };
      merged.required = [...new Set([...(merged.required || []), ...(p.required || [])])];
      for (const k of Object.keys(p)) if (!(k in merged)) merged[k] = p[k];
    }
    if (!merged.type && merged.properties && Object.keys(merged.properties).length) merged.type = 'object';
    s = merged;
  }
  for (const key of ['anyOf', 'oneOf']) {
    const alts = s[key];
    if (Array.isArray(alts) && alts.length === 2 && alts.some((a) => isNullSchema(a, root))) {
      const other = alts.find((a) => !isNullSchema(a, root));
      const { [key]: _, ...rest } = s;
      const inner = effective(other, root);
      s = { ...inner.schema, ...rest };
      nullable = true;
      nullableCombinator = true;
    }
  }
  if (Array.isArray(s.type)) {
    const types = s.type.filter((t) => t !== 'null');
    if (types.length !== s.type.length) nullable = true;
    s = { ...s, type: types.length === 1 ? types[0] : types };
  }
  if (!s.type && s.properties) s = { ...s, type: 'object' };
  if (!s.type && Array.isArray(s.enum)) {
    const ts = [...new Set(s.enum.filter((v) => v !== null).map((v) => (Number.isInteger(v) ? 'integer' : typeof v)))];
    if (ts.length === 1) s = { ...s, type: ts[0] === 'number' ? 'number' : ts[0] };
  }
  if (!s.type && s.const !== undefined) s = { ...s, type: typeof s.const === 'number' ? 'number' : typeof s.const };
  if (Array.isArray(s.enum) && s.enum.includes(null)) {
    nullable = true;
    s = { ...s, enum: s.enum.filter((v) => v !== null) };
  }
  return { schema: s, nullable, nullableCombinator };
}

/** `oneOf`/`anyOf` of `{const, title}` alternatives: a titled enum. */
export function constChoices(s, root) {
  for (const key of ['oneOf', 'anyOf']) {
    const alts = s && s[key];
    if (Array.isArray(alts) && alts.length && alts.every((a) => deref(a, root)?.const !== undefined)) {
      return alts.map((a) => {
        const d = deref(a, root);
        return { value: d.const, title: d.title ?? String(d.const) };
      });
    }
  }
  return null;
}

/** Enum choices (value + the text a renderer shows), or null. */
export function choices(s, root) {
  if (Array.isArray(s.enum)) return s.enum.filter((v) => v !== null).map((v) => ({ value: v, title: String(v) }));
  return constChoices(s, root);
}

/** The schema of `properties/<name>` of an object schema, looking into allOf/anyOf/oneOf too. */
export function propertySchema(objSchema, name, root) {
  const s = deref(objSchema, root);
  if (s?.properties && name in s.properties) return s.properties[name];
  // As @jsonforms/core resolves scopes, plus dependent schemas (the worker
  // mirrors those into allOf for JSON Forms).
  const dependent = (d) => Object.values(d ?? {}).filter((v) => v && typeof v === 'object' && !Array.isArray(v));
  for (const key of ['allOf', 'anyOf', 'oneOf', 'then', 'else', 'dependentSchemas', 'dependencies']) {
    const alts = key === 'dependentSchemas' || key === 'dependencies' ? dependent(s?.[key]) : [].concat(s?.[key] ?? []);
    for (const alt of alts) {
      const found = propertySchema(alt, name, root);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Whether `name` is required in the object schema (allOf parts included). */
export function isRequired(objSchema, name, root) {
  const s = effective(objSchema, root).schema;
  return Array.isArray(s.required) && s.required.includes(name);
}

/**
 * Resolves a JSON Forms scope ("#/properties/a/properties/b", or "#")
 * against `base`. Returns {schema, segments (data path), parent, name}.
 */
export function resolveScope(base, scope, root) {
  if (scope === '#' || scope === '#/') return { schema: base, segments: [], parent: null, name: null };
  const parts = scope.replace(/^#\//, '').split('/').map(decodeToken);
  let cur = base;
  let parent = null;
  let name = null;
  const segments = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p === 'properties') {
      name = parts[++i];
      parent = cur;
      cur = propertySchema(cur, name, root);
      if (cur === undefined) throw new Error(`scope ${scope}: no property ${name}`);
      segments.push(name);
    } else if (p === 'items') {
      cur = deref(cur, root).items;
    } else {
      cur = deref(cur, root)[p];
    }
  }
  return { schema: cur, segments, parent, name };
}

/** lodash-style startCase, as JSON Forms derives labels from property names. */
export function startCase(name) {
  return String(name)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}

// ---------------------------------------------------------------- values

/** A short string matching a simple regular expression (classes, groups, quantifiers). */
export function stringForPattern(pattern) {
  let i = 0;
  const src = pattern;
  function parseAlt() {
    const branches = [[]];
    while (i < src.length && src[i] !== ')') {
      if (src[i] === '|') {
        i++;
        branches.push([]);
        continue;
      }
      branches[branches.length - 1].push(parseQuantified());
    }
    return { alt: branches };
  }
  function parseAtom() {
    const c = src[i++];
    if (c === '^' || c === '$') return { lit: '' };
    if (c === '(') {
      if (src.startsWith('?:', i)) i += 2;
      const inner = parseAlt();
      i++; // )
      return inner;
    }
    if (c === '[') {
      let negate = false;
      if (src[i] === '^') {
        negate = true;
        i++;
      }
      const chars = [];
      while (src[i] !== ']') {
        let a = src[i++];
        if (a === '\\') a = classEscape(src[i++]);
        if (src[i] === '-' && src[i + 1] !== ']') {
          i++;
          let b = src[i++];
          if (b === '\\') b = src[i++];
          chars.push(String.fromCharCode(...range(a.charCodeAt(0), b.charCodeAt(0))));
        } else chars.push(a);
      }
      i++;
      const set = chars.join('');
      if (negate) return { lit: 'a' };
      // prefer a letter/digit over punctuation
      const pick = [...set].find((ch) => /[a-z0-9]/i.test(ch)) ?? set[0];
      return { lit: pick };
    }
    if (c === '\\') return { lit: classEscape(src[i++]) };
    if (c === '.') return { lit: 'a' };
    return { lit: c };
  }
  function classEscape(e) {
    return { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' }[e] ?? e;
  }
  function range(a, b) {
    const out = [];
    for (let k = a; k <= b; k++) out.push(k);
    return out;
  }
  function parseQuantified() {
    const atom = parseAtom();
    let min = 1;
    if (src[i] === '*') {
      min = 0;
      i++;
    } else if (src[i] === '+') {
      min = 1;
      i++;
    } else if (src[i] === '?') {
      min = 0;
      i++;
    } else if (src[i] === '{') {
      const close = src.indexOf('}', i);
      const [lo] = src.slice(i + 1, close).split(',');
      min = Number(lo);
      i = close + 1;
    }
    if (src[i] === '?') i++; // lazy
    return { atom, min };
  }
  function gen(node) {
    if (node.alt) return node.alt[0].map((q) => gen(q.atom).repeat(q.min)).join('');
    return node.lit;
  }
  const ast = parseAlt();
  return gen(ast);
}

/** Valid sample values per format (what a person would type). */
export const FORMAT_VALUES = {
  date: '2025-12-25',
  'date-time': '2025-12-25T08:30:00Z',
  time: '08:30:00Z',
  email: 'a@b.co',
  uri: 'https://example.com',
  'uri-reference': 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
};

/** A valid value for a scalar schema (already `effective`). */
export function sampleValue(s, label, root) {
  const ch = choices(s, root);
  if (s.const !== undefined) return s.const;
  if (ch && ch.length) return ch[0].value;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return sampleNumber(s, type === 'integer');
  // string
  if (s.format && FORMAT_VALUES[s.format]) return FORMAT_VALUES[s.format];
  if (Array.isArray(s.examples) && typeof s.examples[0] === 'string') return s.examples[0];
  if (s.pattern) {
    const v = stringForPattern(s.pattern);
    if (new RegExp(s.pattern, 'u').test(v)) return v;
  }
  let v = `Test ${label || 'value'}`.replace(/[^A-Za-z0-9 ]/g, '').trim() || 'Test';
  if (s.maxLength !== undefined && v.length > s.maxLength) v = v.slice(0, Math.max(1, s.maxLength));
  while (s.minLength !== undefined && v.length < s.minLength) v += 'x';
  return v;
}

function sampleNumber(s, integer) {
  let lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : undefined);
  let hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : undefined);
  const step = s.multipleOf ?? (integer ? 1 : undefined);
  let v;
  if (lo !== undefined && hi !== undefined) v = lo + (hi - lo) / 2;
  else if (lo !== undefined) v = lo + 7;
  else if (hi !== undefined) v = Math.min(hi - 1, 7);
  else v = 7;
  if (step) v = Math.round(v / step) * step;
  if (integer) v = Math.round(v);
  if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum) v += step ?? 1;
  if (s.exclusiveMaximum !== undefined && v >= s.exclusiveMaximum) v -= step ?? 1;
  if (s.minimum !== undefined && v < s.minimum) v = s.minimum;
  if (s.maximum !== undefined && v > s.maximum) v = s.maximum;
  // avoid float noise such as 0.30000000000000004
  return Number(Number(v).toPrecision(12));
}

// ---------------------------------------------------------------- ajv

/** Validates `data` against `schema` with formats; returns [] or [{pointer, message}]. */
export function validate(schema, data) {
  const is2020 = !schema.$schema || DRAFT_2020.test(schema.$schema);
  const make = (Cls) => {
    const ajv = new Cls({ allErrors: true, strict: false });
    addFormats(ajv);
    // The worker reads `format: time` as time widgets produce it: the
    // offset is optional (crates/genui-core/src/schema/validate.rs, is_time).
    ajv.addFormat('time', /^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([zZ]|[+-]([01]\d|2[0-3]):[0-5]\d)?$/);
    return ajv;
  };
  let validateFn;
  try {
    validateFn = make(is2020 ? Ajv2020 : Ajv).compile(schema);
  } catch (e) {
    if (schema.$schema) throw e;
    validateFn = make(Ajv).compile(schema); // no $schema: 2020-12 first, then draft-07 (as the worker does)
  }
  if (validateFn(data)) return [];
  return validateFn.errors.map((e) => ({ pointer: e.instancePath || '', message: `${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}` }));
}

/**
 * Whether a JSON Forms rule lets its element show, given the data at the
 * condition's scope (`value`): JSON Forms' own evaluation (ajv on the value;
 * `failWhenUndefined` fails an undefined value).
 */
export function ruleShows(rule, value) {
  const c = rule.condition ?? {};
  let holds;
  if (c.failWhenUndefined && value === undefined) holds = false;
  else {
    const ajv = new Ajv({ strict: false });
    holds = ajv.validate(c.schema ?? {}, value);
  }
  if (rule.effect === 'SHOW') return holds;
  if (rule.effect === 'HIDE') return !holds;
  return true;
}

/** Reads the value at a data path (array of keys/indices). */
export function getAt(data, segments) {
  let cur = data;
  for (const s of segments) {
    if (cur == null) return undefined;
    cur = cur[s];
  }
  return cur;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `read()` (the form's current data) until the value at `path`
 * satisfies `ok`, for at most `ms`; returns {ok, value} with the last value
 * seen. Renderers update their data asynchronously after a key press.
 */
export async function settleAt(read, path, ok, ms = 2000) {
  const t0 = Date.now();
  let v;
  do {
    v = getAt(await read(), path);
    if (ok(v)) return { ok: true, value: v };
    await sleep(50);
  } while (Date.now() - t0 < ms);
  return { ok: false, value: v };
}

// ---------------------------------------------------------------- A2UI

const A2UI_DIR = new URL('../../../schemas/vendor/a2ui-v0.9/', import.meta.url);
const A2UI_BASE = 'https://a2ui.org/specification/v0_9/';
let a2uiAjv = null;

/**
 * Validators for A2UI's published v0.9 schemas (vendored), loaded as
 * upstream's validate.py does: the basic catalog also registered under the
 * `catalog.json` URI its relative references resolve to.
 */
function a2ui() {
  if (a2uiAjv) return a2uiAjv;
  const read = (name) => JSON.parse(readFileSync(new URL(name, A2UI_DIR), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ ...read('catalogs/basic/catalog.json'), $id: `${A2UI_BASE}catalog.json` });
  for (const name of ['common_types.json', 'server_to_client.json', 'server_to_client_list.json']) ajv.addSchema(read(name));
  ajv.addSchema(read('client_to_server.json'), `${A2UI_BASE}client_to_server.json`);
  a2uiAjv = { wrapper: ajv.compile(read('server_to_client_list_wrapper.json')), client: ajv.getSchema(`${A2UI_BASE}client_to_server.json`) };
  return a2uiAjv;
}

/** Errors of an answer against server_to_client_list_wrapper.json ([] when valid). */
export function a2uiWrapperErrors(answer) {
  const v = a2ui().wrapper;
  return v(answer) ? [] : v.errors.slice(0, 5).map((e) => `${e.instancePath} ${e.message}`);
}

/** Errors of a client message against client_to_server.json ([] when valid). */
export function a2uiClientErrors(message) {
  const v = a2ui().client;
  return v(message) ? [] : v.errors.slice(0, 5).map((e) => `${e.instancePath} ${e.message}`);
}

/** The data a valid submission's answer carries: a tool message's `content`
 * (JSON text), or a `dgui_response`'s `data` (a submission naming no
 * `toolCallId`). */
export function submittedData(message) {
  return message.type === 'dgui_response' ? message.data : JSON.parse(message.content);
}
