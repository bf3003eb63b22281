// format=react in a real browser: the worker's TSX module is bundled with
// esbuild against the real react, react-hook-form, zod and
// @hookform/resolvers from npm, mounted with the answer's `initialData`, and
// driven like a person: one required field emptied and submitted (the error
// must show beside that field and `respond` must not fire), then every
// field filled from `output` (lists grown with their Add buttons, wizard
// steps followed with Next) and submitted, so that `respond` receives the
// data that goes on to /v1/submit.
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deref, effective, isRequired, propertySchema, sampleValue, sleep } from './schema.mjs';

/** What mounts the module: its default export, `respond` recorded on window. */
const ENTRY = `import { createRoot } from "react-dom/client"
import Form from "./form"
const w = window as unknown as Record<string, unknown>
const responded: unknown[] = []
w.responded = responded
w.mountForm = (initialData: unknown) =>
  createRoot(document.getElementById("root")!).render(<Form initialData={initialData as never} respond={(d) => responded.push(d)} />)
w.formReady = true
`;

/**
 * Bundles the module of a react answer into `<dist>/react/<name>/`
 * (index.html + app.js); returns the page's path under the static server.
 */
export async function bundleReact(answer, name, dist) {
  const dir = join(dist, 'react', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'form.tsx'), answer.module);
  writeFileSync(join(dir, 'entry.tsx'), ENTRY);
  await build({
    entryPoints: [join(dir, 'entry.tsx')],
    outfile: join(dir, 'app.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>${name}</title></head><body><main id="root"></main><script src="app.js"></script></body></html>`,
  );
  return `react/${name}/index.html`;
}

/** The schema at a react-hook-form path ("a.b.0.c") of `output`. */
export function schemaAt(root, path) {
  let cur = root;
  let parent = null;
  let key = null;
  let segments = path.split('.');
  // A module whose output is not an object keeps it under `value`
  // (react-hook-form holds an object).
  const top = effective(root, root).schema;
  const objectRoot = top.type === 'object' || top.properties !== undefined || top.allOf !== undefined;
  if (!objectRoot && segments[0] === 'value') {
    segments = segments.slice(1);
    if (segments.length === 0) return { schema: top, parent: { required: ['value'] }, key: 'value' };
  }
  for (const seg of segments) {
    const s = effective(cur, root).schema;
    parent = s;
    key = seg;
    if (/^\d+$/.test(seg) && (s.items || s.prefixItems)) cur = s.prefixItems?.[Number(seg)] ?? s.items;
    else cur = propertySchema(s, seg, root);
    if (cur === undefined) return { schema: undefined, parent, key };
  }
  return { schema: effective(cur, root).schema, parent, key };
}

/** A small document `schema` accepts: required properties, minimum items. */
export function sampleDocument(schema, root, label = 'value', depth = 0) {
  const s = effective(deref(schema, root) ?? {}, root).schema;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ['oneOf', 'anyOf']) {
    if (Array.isArray(s[key]) && s[key].length && !s.type) return sampleDocument(s[key][0], root, label, depth + 1);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || (!type && s.properties)) {
    const out = {};
    if (depth > 6) return out;
    for (const name of s.required ?? []) {
      const sub = propertySchema(s, name, root);
      out[name] = sub === undefined ? 'x' : sampleDocument(sub, root, name, depth + 1);
    }
    return out;
  }
  if (type === 'array') {
    const n = Math.max(s.minItems ?? 0, 0);
    return Array.from({ length: n }, (_, i) => sampleDocument(s.prefixItems?.[i] ?? s.items ?? {}, root, label, depth + 1));
  }
  if (!type) return 'x';
  return sampleValue(s, label, root);
}

/** Every named control on screen, in document order. */
function listControls(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('form [name]')].map((el, index) => ({
      index,
      name: el.getAttribute('name'),
      tag: el.tagName.toLowerCase(),
      type: el.getAttribute('type') ?? '',
      multiple: el.multiple === true,
      readOnly: el.readOnly === true || el.disabled === true,
      placeholder: el.getAttribute('placeholder') ?? '',
      value: el.getAttribute('value'),
      label: el.closest('label')?.querySelector('span')?.textContent ?? '',
      // Steps not shown, branches not chosen and fields a rule hides are
      // in the DOM but not on screen: a person cannot fill them.
      visible: el.checkVisibility(),
    })),
  ).then((controls) => controls.filter((c) => c.visible));
}

/** The value an option or radio carries for `v` (JSON text unless a string). */
const optionValue = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Date, time and date-time values as the native inputs take them. */
function nativeValue(type, v) {
  if (type === 'datetime-local') return String(v).replace(/Z$|[+-]\d\d:\d\d$/, '').slice(0, 16);
  if (type === 'time') return String(v).replace(/Z$|[+-]\d\d:\d\d$/, '').slice(0, 8);
  return String(v);
}

/** Fills one control like a person would; returns what it entered, or a reason it could not. */
async function fill(page, control, output) {
  const { schema: s } = schemaAt(output, control.name);
  if (!s) return { skipped: `no schema at ${control.name}` };
  const at = page.locator(`form [name="${control.name}"]`);
  const label = control.label || control.name;
  if (control.type === 'radio') {
    const v = sampleValue(s, label, output);
    await at.and(page.locator(`[value="${optionValue(v).replace(/"/g, '\\"')}"]`)).check();
    return { entered: v };
  }
  if (control.type === 'checkbox') {
    const v = s.const ?? true;
    await at.setChecked(v === true);
    return { entered: v };
  }
  if (control.tag === 'select') {
    const items = control.multiple ? effective(s.items ?? {}, output).schema : s;
    const choices = (items.enum ?? (items.oneOf ?? items.anyOf ?? []).map((a) => deref(a, output)?.const)).filter((v) => v !== undefined && v !== null);
    const n = control.multiple ? Math.max(1, s.minItems ?? 1) : 1;
    const picked = choices.slice(0, n).map(optionValue);
    await at.selectOption(control.multiple ? picked : picked[0]);
    return { entered: picked };
  }
  if (control.tag === 'textarea' && control.placeholder === 'One per line') {
    const item = effective(s.items ?? {}, output).schema;
    const n = Math.max(1, s.minItems ?? 1);
    const lines = Array.from({ length: n }, (_, i) => String(sampleValue(item, `${label} ${i + 1}`, output)));
    const text = s.uniqueItems ? [...new Set(lines)].join('\n') : lines.join('\n');
    await at.fill(text);
    return { entered: text };
  }
  if (control.tag === 'textarea' && control.placeholder === 'JSON') {
    const text = JSON.stringify(sampleDocument(s, output, label));
    await at.fill(text);
    return { entered: text };
  }
  const v = sampleValue(s, label, output);
  await at.fill(nativeValue(control.type, v));
  return { entered: v };
}

/** Grows every list that has no item yet (its Add button follows no item). */
function addMissingItems(page) {
  return page.evaluate(() => {
    let added = 0;
    for (const button of document.querySelectorAll('form button[type="button"]')) {
      if (button.textContent.trim() !== 'Add') continue;
      if (button.previousElementSibling?.tagName === 'FIELDSET') continue;
      button.click();
      added += 1;
    }
    return added;
  });
}

/** Clicks an enabled Next button of a wizard; whether there was one. */
function nextStep(page) {
  return page.evaluate(() => {
    const next = [...document.querySelectorAll('form button[type="button"]')].find((b) => b.textContent.trim() === 'Next' && !b.disabled);
    next?.click();
    return Boolean(next);
  });
}

/** The visible error texts, each with the name of the field it sits beside. */
function shownErrors(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('form [role="alert"]')].map((alert) => ({
      text: alert.textContent,
      field: alert.parentElement?.querySelector('[name]')?.getAttribute('name') ?? null,
    })),
  );
}

const responded = (page) => page.evaluate(() => window.responded.length);

async function submit(page) {
  await page.locator('form button[type="submit"]').last().click();
  await sleep(300);
}

/**
 * Drives a mounted module. Returns {fields, failures, notes, invalid, data}:
 * `invalid` is the field emptied and the error shown beside it; `data` is
 * what `respond` received.
 */
export async function driveReact(page, output) {
  const out = { fields: 0, failures: [], notes: [], fills: [], invalid: null, data: undefined };
  await checkInvalid(page, output, out);
  const filled = new Set();
  for (let round = 0; round < 12; round += 1) {
    if (round < 3 && (await addMissingItems(page)) > 0) await sleep(100);
    const todo = (await listControls(page)).filter((c) => !c.readOnly && !filled.has(`${c.name}|${c.type}`));
    if (todo.length === 0) {
      if (await nextStep(page)) {
        await sleep(100);
        continue;
      }
      break;
    }
    for (const control of todo) {
      // Filling a field before may have hidden this one (a branch chosen).
      if (!(await page.locator(`form [name="${control.name}"]`).first().isVisible())) continue;
      filled.add(`${control.name}|${control.type}`);
      try {
        const result = await fill(page, control, output);
        if (result.skipped) out.notes.push(`${control.name}: ${result.skipped}`);
        else {
          out.fields += 1;
          out.fills.push({ name: control.name, entered: result.entered });
        }
      } catch (e) {
        out.failures.push(`${control.name} (${control.tag}${control.type ? ` ${control.type}` : ''}): ${e.message.split('\n')[0]}`);
      }
    }
    await sleep(50);
  }
  await submit(page);
  if ((await responded(page)) === 0) {
    for (const e of await shownErrors(page)) out.failures.push(`after filling, ${e.field ?? 'the form'} says "${e.text}"`);
    if (out.failures.length === 0) out.failures.push('respond was not called and no error is shown');
    return out;
  }
  out.data = await page.evaluate(() => window.responded.at(-1));
  return out;
}

/**
 * Empties one required field the module shows, submits, and checks that the
 * error sits beside that field and that `respond` stays silent.
 */
async function checkInvalid(page, output, out) {
  const controls = await listControls(page);
  const target = controls.find((c) => {
    // Lists typed one per line are arrays: empty is [], which `required` allows.
    if (c.readOnly || !['input', 'textarea'].includes(c.tag) || ['checkbox', 'radio', 'range'].includes(c.type) || ['JSON', 'One per line'].includes(c.placeholder)) return false;
    const { schema, parent, key } = schemaAt(output, c.name);
    return schema && parent && isRequired(parent, key, output) && !/^\d+$/.test(key);
  });
  if (!target) {
    out.notes.push('no required text field to leave empty: the invalid submission was not tried');
    return;
  }
  await page.locator(`form [name="${target.name}"]`).fill('');
  await submit(page);
  const errors = await shownErrors(page);
  const beside = errors.find((e) => e.field === target.name);
  out.invalid = { field: target.name, errors };
  if ((await responded(page)) > 0) out.failures.push(`respond was called although required ${target.name} is empty`);
  if (!beside) out.failures.push(`no error beside the emptied required field ${target.name}; shown: ${JSON.stringify(errors)}`);
}
