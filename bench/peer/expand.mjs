// Theirs to full depth, the way JSON Forms' renderers get there.
//
// `Generate.uiSchema` stops at the first level: a nested object or an array
// becomes one Control. At render time, JSON Forms' object renderer calls
// `Generate.uiSchema(objectSchema, 'Group', ...)` for that control, and the
// array renderers do the same for the item schema. `expandLikeRenderers`
// performs all of those calls eagerly, so the timing covers the generation
// work a full form costs with JSON Forms (not the rendering):
//
// - an object Control is replaced by the Group generated for its schema,
//   with the Group's scopes made absolute (as the renderer composes paths);
// - an array-of-objects Control gets the item layout as `options.detail`
//   (scopes relative to the item schema, as ours and JSON Forms use it).
//
// Recursion stops where a schema object repeats on the path (the renderers
// would expand it only as data appears); MAX_DEPTH and MAX_CONTROLS bound
// the rest, like our generator's limits.

import { Generate, resolveSchema } from "@jsonforms/core";

const MAX_DEPTH = 48;
const MAX_CONTROLS = 5000;

/** The full-depth uiSchema of `schema`. */
export function expandLikeRenderers(schema) {
  const state = { root: schema, controls: 0 };
  const ui = Generate.uiSchema(schema);
  expandElements(state, ui, schema, "", [schema], 0);
  return ui;
}

function expandElements(state, layout, base, prefix, path, depth) {
  if (!Array.isArray(layout?.elements)) return;
  layout.elements = layout.elements.map((element) => {
    if (element?.type !== "Control") {
      expandElements(state, element, base, prefix, path, depth);
      return element;
    }
    state.controls += 1;
    return expandControl(state, element, base, prefix, path, depth);
  });
}

function expandControl(state, control, base, prefix, path, depth) {
  const scope = control.scope.replace(/^#/, "");
  const schema = resolveSchema(base, control.scope, state.root);
  if (!schema || path.includes(schema) || depth >= MAX_DEPTH || state.controls >= MAX_CONTROLS) {
    return { ...control, scope: `#${prefix}${scope}` };
  }
  if (isObjectWithProperties(schema)) {
    const group = Generate.uiSchema(schema, "Group", "#", state.root);
    expandElements(state, group, schema, `${prefix}${scope}`, [...path, schema], depth + 1);
    return group.type === "Control" ? { ...group, scope: `#${prefix}${scope}` } : group;
  }
  const items = schema.items && !Array.isArray(schema.items) ? resolveItems(schema.items, state.root) : undefined;
  if (items && isObjectWithProperties(items) && !path.includes(items)) {
    const detail = Generate.uiSchema(items, "VerticalLayout", "#", state.root);
    expandElements(state, detail, items, "", [...path, items], depth + 1);
    return { ...control, scope: `#${prefix}${scope}`, options: { ...control.options, detail } };
  }
  return { ...control, scope: `#${prefix}${scope}` };
}

function resolveItems(items, root) {
  return typeof items.$ref === "string" ? resolveSchema(root, items.$ref, root) : items;
}

function isObjectWithProperties(schema) {
  return schema !== null && typeof schema === "object" && schema.properties && Object.keys(schema.properties).length > 0;
}
