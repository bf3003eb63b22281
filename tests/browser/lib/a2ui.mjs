// Drives a format=a2ui surface rendered by @a2ui/lit (src/a2ui.js) like a
// person: finds every input component of updateComponents on screen by its
// label, types or picks a valid value for its field (lib/schema.mjs
// sampleValue), and presses the surface's own submit (or Approve) button.
// Returns the client message the surface fired, for the runner to POST to
// /v1/submit.
//
// @a2ui/lit 0.11 leaves TextField, DateTimeInput and the ChoicePicker group
// label unassociated (<label> without for/id) and the Slider label is a
// <span>, so getByLabel() finds nothing: each input is found inside its
// element (a2ui-basic-textfield, ...) by the label text it shows, and the
// missing association is recorded as a note (known renderer issue).
import { choices, decodeToken, effective, propertySchema, sampleValue, sleep } from './schema.mjs';

const INPUTS = {
  TextField: 'a2ui-basic-textfield',
  CheckBox: 'a2ui-checkbox',
  ChoicePicker: 'a2ui-choicepicker',
  DateTimeInput: 'a2ui-datetimeinput',
  Slider: 'a2ui-slider',
};

/** The schema at an absolute data path such as "/address/city". */
export function schemaAt(output, path) {
  let s = output;
  for (const token of path.split('/').slice(1).map(decodeToken)) {
    s = propertySchema(s, token, output);
    if (s === undefined) return undefined;
  }
  return effective(s, output).schema;
}

/**
 * Components reachable only through a List template (item scope), each
 * with the absolute data path of its List's array.
 */
export function templated(components) {
  const byId = new Map(components.map((c) => [c.id, c]));
  const out = new Map();
  const visit = (id, list) => {
    if (out.has(id) || !byId.has(id)) return;
    out.set(id, list);
    const c = byId.get(id);
    for (const child of [].concat(Array.isArray(c.children) ? c.children : [], c.child ?? [], (c.tabs ?? []).map((t) => t.child))) visit(child, list);
  };
  for (const c of components) if (c.children && !Array.isArray(c.children)) visit(c.children.componentId, c.children.path);
  return out;
}

/** The item schema of the array at an absolute data path. */
export function itemSchemaAt(output, path) {
  const array = schemaAt(output, path);
  return array?.items ? effective(array.items, output).schema : undefined;
}

/** The schema at a path relative to an item schema ("name", "a/b"). */
export function relativeSchema(item, path, output) {
  let s = item;
  for (const token of path.split('/').map(decodeToken)) {
    s = s && propertySchema(s, token, output);
    if (s === undefined) return undefined;
  }
  return effective(s, output).schema;
}

/** A value as a person types it into the component. */
export function typed(comp, schema, value) {
  if (comp.label.endsWith('(one per line)')) return (Array.isArray(value) ? value : [value]).join('\n');
  if (comp.label.endsWith('(JSON)')) return JSON.stringify(value);
  return String(value);
}

/**
 * A valid value for any schema, as a person would build it: the first
 * alternative of a oneOf/anyOf, an object's required properties, an
 * array's minimum number of items, scalars from sampleValue.
 */
function sampleAny(schema, label, output, depth = 0) {
  const s = effective(schema ?? {}, output).schema;
  const alts = s.oneOf ?? s.anyOf;
  if (Array.isArray(alts) && alts.length && !choices(s, output)) return sampleAny({ ...s, oneOf: undefined, anyOf: undefined, ...effective(alts[0], output).schema }, label, output, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type ?? (s.properties ? 'object' : undefined);
  if (type === 'object') {
    const out = {};
    if (depth < 6) for (const name of s.required ?? []) out[name] = sampleAny(propertySchema(s, name, output) ?? {}, name, output, depth + 1);
    return out;
  }
  if (type === 'array') {
    const n = s.minItems ?? 0;
    const one = sampleAny(s.items ?? {}, label, output, depth + 1);
    // Distinct items only when the schema asks for them (and can tell).
    return Array.from({ length: n }, (_, i) => (s.uniqueItems && typeof one === 'string' ? `${one}${i}` : one));
  }
  return sampleValue(s, label, output);
}

/** A valid value for the field (lists: at least one item). */
export function valueFor(schema, comp, output) {
  const s = schema ?? {};
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'array' || comp.variant === 'multipleSelection') {
    const n = Math.max(1, s.minItems ?? 1);
    if (comp.options) return comp.options.map((o) => o.value).slice(0, n);
    const one = sampleAny(s.items ?? {}, comp.label, output);
    return Array.from({ length: n }, (_, i) => (s.uniqueItems && typeof one === 'string' ? `${one}${i}` : one));
  }
  if (comp.label.endsWith('(JSON)')) return sampleAny(s, comp.label, output);
  return sampleValue(s, comp.label, output);
}

export async function driveA2ui(page, wrapper, output) {
  const components = wrapper.messages[1].updateComponents.components;
  const inItem = templated(components);
  const failures = [];
  const notes = [];
  let fields = 0;
  let unlabelled = 0;
  // Steps are Tabs, which show one tab at a time: fill what is on screen,
  // then open each tab in turn and fill what it brings.
  // A required list with no items: press its Add button (the page's host
  // appends an item), so that its item fields come on screen.
  const model = (await page.evaluate(() => window.a2uiDataModel())) ?? { surfaces: {} };
  const data = Object.values(model.surfaces)[0] ?? {};
  for (const list of components.filter((c) => c.component === 'List' && c.children?.path?.startsWith('/'))) {
    const path = list.children.path;
    const array = schemaAt(output, path);
    const parent = path.split('/').slice(0, -1).join('/');
    const name = decodeToken(path.split('/').pop());
    const required = (schemaAt(output, parent || '') ?? output).required?.includes(name) || (array?.minItems ?? 0) > 0;
    const current = path.split('/').slice(1).map(decodeToken).reduce((v, k) => v?.[k], data);
    if (!required || (Array.isArray(current) && current.length)) continue;
    const add = components.find((c) => c.component === 'Button' && c.action?.event?.name === 'genui.addItem' && c.action.event.context.array === path);
    const text = add && components.find((c) => c.id === add.child)?.text;
    if (!text) continue;
    await page.locator('a2ui-basic-button').filter({ hasText: text }).locator('button').first().click();
    await sleep(100);
  }
  const seen = new Map();
  const pending = new Set(components.filter((c) => INPUTS[c.component]).map((c) => c.id));
  const tabs = components.filter((c) => c.component === 'Tabs').flatMap((c) => c.tabs.map((t) => t.title));
  for (const title of [null, ...tabs]) {
    if (title !== null) {
      if (!pending.size) break;
      await page.locator('a2ui-tabs button').filter({ hasText: title }).first().click().catch((e) => failures.push(`tab "${title}": ${e.message.split('\n')[0]}`));
      await sleep(50);
    }
  for (const comp of components.filter((c) => pending.has(c.id))) {
    const tag = INPUTS[comp.component];
    const label = comp.component === 'CheckBox' ? comp.label : comp.label ?? '';
    if ((await page.locator(tag).filter({ has: page.getByText(label, { exact: true }) }).count()) === 0) continue;
    pending.delete(comp.id);
    if (tag && inItem.has(comp.id)) {
      // Items the data already has: complete the text fields left empty.
      const list = inItem.get(comp.id);
      const schema = relativeSchema(itemSchemaAt(output, list) ?? {}, comp.value?.path ?? '', output);
      if (!schema) continue;
      const hosts = page.locator(tag).filter({ has: page.getByText(comp.label, { exact: true }) });
      for (let i = 0; i < (await hosts.count()); i++) {
        if (comp.component === 'TextField' && (await hosts.nth(i).locator('input, textarea').first().inputValue()) !== '') continue;
        fields += 1;
        await fill(page, hosts.nth(i), comp, schema, valueFor(schema, comp, output)).catch((e) => failures.push(`${comp.id} item ${i}: ${e.message.split('\n')[0]}`));
      }
      continue;
    }
    if (!tag) continue;
    const path = comp.value?.path;
    if (typeof path !== 'string' || !path.startsWith('/')) {
      failures.push(`${comp.id}: input not bound to an absolute data path`);
      continue;
    }
    // Several fields may share a label (two addresses' "City"): the n-th
    // component with it is the n-th on screen (both in document order).
    const key = `${tag}|${label}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    const host = page.locator(tag).filter({ has: page.getByText(label, { exact: true }) }).nth(nth);
    fields += 1;
    if ((await page.getByLabel(label, { exact: true }).count()) === 0) unlabelled += 1;
    const schema = schemaAt(output, path);
    const value = valueFor(schema, comp, output);
    try {
      await fill(page, host, comp, schema, value);
    } catch (e) {
      failures.push(`${comp.id} (${label}): could not fill ${JSON.stringify(value)}: ${e.message.split('\n')[0]}`);
    }
  }
  }
  for (const id of pending) {
    const comp = components.find((c) => c.id === id);
    // An item input shows only when the data has items; others must be reachable.
    if (!inItem.has(id)) failures.push(`${id}: no ${INPUTS[comp.component]} labelled "${comp.label}" on screen (in any tab)`);
  }
  if (unlabelled) notes.push(`${unlabelled} of ${fields} inputs have no accessible label (@a2ui/lit 0.11: <label> without for/id); found by their label text`);
  const approve = components.find((c) => c.id === 'approve');
  if (approve) fields += 1; // the decision is made with its buttons
  const buttonText = approve ? 'Approve' : 'Submit';
  const button = page.locator('a2ui-basic-button').filter({ hasText: buttonText }).locator('button').first();
  await sleep(100);
  if (await button.isDisabled()) {
    const shown = await page.locator('.error').allTextContents();
    failures.push(`the ${buttonText} button stays disabled after filling (checks failing): ${JSON.stringify(shown.slice(0, 8))}`);
    return { fields, failures, notes, message: null };
  }
  await button.click();
  const message = await page.waitForFunction(() => window.a2uiActions.find((m) => m.action.name === 'genui.submit'), null, { timeout: 3000 }).then((h) => h.jsonValue()).catch(() => null);
  if (!message) failures.push(`pressing ${buttonText} fired no genui.submit action`);
  return { fields, failures, notes, message };
}

async function fill(page, host, comp, schema, value) {
  switch (comp.component) {
    case 'TextField':
      await host.locator('input, textarea').first().fill(typed(comp, schema, value));
      return;
    case 'CheckBox': {
      const box = host.locator('input[type=checkbox]').first();
      if (value === true) await box.check();
      else await box.uncheck();
      return;
    }
    case 'ChoicePicker': {
      for (const v of [].concat(value)) {
        const option = comp.options.find((o) => o.value === (typeof v === 'string' ? v : JSON.stringify(v)));
        if (!option) throw new Error(`no option for ${JSON.stringify(v)}`);
        await host.locator('label.a2ui-option-label').filter({ hasText: option.label }).locator('input').first().check();
      }
      return;
    }
    case 'DateTimeInput': {
      const text = String(value);
      const date = text.slice(0, 10);
      const time = (text.includes('T') ? text.split('T')[1] : text).slice(0, 5);
      if (comp.enableDate) await host.locator('input[type=date]').first().fill(date);
      if (comp.enableTime) await host.locator('input[type=time]').first().fill(time);
      return;
    }
    case 'Slider': {
      await host.locator('input[type=range]').first().evaluate((el, v) => {
        el.value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, value);
      return;
    }
    default:
      throw new Error(`unknown input ${comp.component}`);
  }
}
