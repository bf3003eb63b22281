// Puts the worker's submission errors (422 `submission_invalid`,
// payload.errors = [{pointer, message, keyword}]) next to the fields: JSON
// Forms takes Ajv-shaped `additionalErrors`, RJSF an `extraErrors` tree.

/** The field errors of a dgui_error, or [] when it has none. */
export function fieldErrors(body) {
  const errors = body?.payload?.errors;
  return Array.isArray(errors) ? errors.filter((e) => e && typeof e.pointer === 'string') : [];
}

/** RFC 6901 pointer -> path segments. */
export function segments(pointer) {
  if (!pointer) return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * JSON Forms' `additionalErrors`: Ajv ErrorObjects. The keyword is not
 * passed through as `required`, because JSON Forms reads a `required` error
 * as belonging to `instancePath + "/" + params.missingProperty`, while the
 * worker already points at the missing field itself.
 */
export function toJsonFormsErrors(errors) {
  return errors.map((e) => ({
    instancePath: e.pointer,
    schemaPath: '#/worker',
    keyword: 'worker',
    params: { keyword: e.keyword },
    message: e.message,
  }));
}

/** RJSF's `extraErrors`: {field: {nested: {__errors: [message]}}}, root errors at the top. */
export function toRjsfErrors(errors) {
  const tree = {};
  for (const e of errors) {
    let node = tree;
    for (const key of segments(e.pointer)) node = node[key] ??= {};
    (node.__errors ??= []).push(e.message);
  }
  return tree;
}

/** What to submit when a renderer has no data yet: {} for an object form. */
export function emptyFor(schema) {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  return type === 'object' || (!type && schema?.properties) ? {} : null;
}
