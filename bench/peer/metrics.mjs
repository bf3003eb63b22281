// What a generated uiSchema covers, measured the same way for both
// generators (report.mjs applies these functions to ours and to theirs).
//
// Definitions (also printed in bench-results/peer.md):
//
// - leaf field: a property declared by the schema whose own schema is not an
//   object with properties. The walk starts at the root and goes through
//   `properties`, array `items`, local `$ref`s, `allOf` members and the
//   nullable idiom `anyOf`/`oneOf: [X, {type: null}]`, to full depth; a
//   property whose `$ref` already appears on the path (recursion) counts as
//   one leaf. An array of objects is not a leaf: its item fields are. The
//   path of a field is its schema path, e.g. /properties/a/items/properties/b.
//   Bounded: MAX_DEPTH levels and MAX_LEAVES leaves.
// - control: a JSON Forms `Control` element anywhere in the uiSchema,
//   including inside an array control's `options.detail` (whose scopes are
//   relative to the item schema: they are prefixed with the array's path +
//   /items).
// - depth of a control: the number of property names on its path
//   (`#/properties/a/properties/b` is 2; a control `#/properties/c` in the
//   detail of `#/properties/list` is 2). Depth reached = max over controls.
// - covered leaf: a leaf field with a control bound to exactly its path.

const MAX_DEPTH = 48;
const MAX_LEAVES = 5000;
const MAX_MERGES = 256;

/** Leaf field paths of a schema document (a Set), and whether the walk was cut. */
export function leafFields(doc) {
  const state = { doc, leaves: new Set(), truncated: false };
  const root = resolve(doc, doc);
  if (hasProperties(root)) walkObject(state, root, "", root.refs, 0);
  return { leaves: state.leaves, truncated: state.truncated };
}

function walkObject(state, view, base, refsOnPath, depth) {
  for (const [name, schema] of Object.entries(view.properties)) {
    const path = `${base}/properties/${escape(name)}`;
    walkField(state, resolve(state.doc, schema), path, refsOnPath, depth + 1);
  }
}

function walkField(state, view, path, refsOnPath, depth) {
  if (state.leaves.size >= MAX_LEAVES || depth > MAX_DEPTH) {
    state.truncated = true;
    return;
  }
  const recursive = view.refs.some((r) => refsOnPath.includes(r));
  if (hasProperties(view) && !recursive) {
    return walkObject(state, view, path, [...refsOnPath, ...view.refs], depth);
  }
  const items = isObject(view.items) ? resolve(state.doc, view.items) : null;
  if (!recursive && items && hasProperties(items) && !items.refs.some((r) => refsOnPath.includes(r))) {
    return walkObject(state, items, `${path}/items`, [...refsOnPath, ...view.refs, ...items.refs], depth);
  }
  state.leaves.add(path);
}

/** A schema node with local `$ref`s, `allOf` and the nullable idiom merged in. */
function resolve(doc, node) {
  const view = { properties: {}, items: undefined, refs: [], merges: 0 };
  mergeInto(doc, node, view, 0);
  return view;
}

function mergeInto(doc, node, view, hops) {
  if (!isObject(node) || ++view.merges > MAX_MERGES) return;
  if (isObject(node.properties)) {
    for (const [k, v] of Object.entries(node.properties)) if (!(k in view.properties)) view.properties[k] = v;
  }
  if (view.items === undefined && node.items !== undefined) view.items = node.items;
  for (const key of ["anyOf", "oneOf"]) {
    const member = nullableMember(node[key]);
    if (member) mergeInto(doc, member, view, hops);
  }
  if (typeof node.$ref === "string" && hops < 32 && !view.refs.includes(node.$ref)) {
    const target = lookup(doc, node.$ref);
    if (target !== undefined) {
      view.refs.push(node.$ref);
      mergeInto(doc, target, view, hops + 1);
    }
  }
  if (Array.isArray(node.allOf)) node.allOf.forEach((m) => mergeInto(doc, m, view, hops));
}

function nullableMember(members) {
  if (!Array.isArray(members) || members.length !== 2) return null;
  const isNull = (m) => isObject(m) && m.type === "null";
  if (isNull(members[1]) && !isNull(members[0])) return members[0];
  if (isNull(members[0]) && !isNull(members[1])) return members[1];
  return null;
}

function lookup(doc, ref) {
  if (!ref.startsWith("#")) return undefined; // nothing outside the document is fetched
  let fragment;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return doc;
  if (!fragment.startsWith("/")) return undefined;
  let node = doc;
  for (const raw of fragment.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !(token in node)) return undefined;
    node = node[token];
  }
  return node;
}

/** Every control of a uiSchema with its absolute schema path and depth. */
export function controls(uiSchema) {
  const out = [];
  visit(uiSchema, "", out);
  return out;
}

function visit(element, prefix, out) {
  if (!isObject(element)) return;
  if (element.type === "Control" && typeof element.scope === "string") {
    const path = prefix + element.scope.replace(/^#/, "");
    out.push({ path, depth: depthOf(path) });
    const detail = element.options?.detail;
    if (isObject(detail)) visit(detail, `${path}/items`, out);
  }
  if (Array.isArray(element.elements)) element.elements.forEach((e) => visit(e, prefix, out));
}

/** Property names on a schema path: `properties` tokens, skipping the names. */
export function depthOf(path) {
  const tokens = path.split("/").slice(1);
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === "properties") {
      depth += 1;
      i += 1; // the property name itself, which may be "properties"
    }
  }
  return depth;
}

/** The per-schema numbers the report aggregates. */
export function measure(schema, uiSchema) {
  const { leaves, truncated } = leafFields(schema);
  const found = uiSchema ? controls(uiSchema) : [];
  const paths = new Set(found.map((c) => c.path));
  let covered = 0;
  for (const leaf of leaves) if (paths.has(leaf)) covered += 1;
  return {
    leaves: leaves.size,
    leavesTruncated: truncated,
    leafDepth: [...leaves].reduce((m, leaf) => Math.max(m, depthOf(leaf)), 0),
    controls: found.length,
    coveredLeaves: covered,
    depth: found.reduce((m, c) => Math.max(m, c.depth), 0),
  };
}

function hasProperties(view) {
  return Object.keys(view.properties).length > 0;
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function escape(name) {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}
