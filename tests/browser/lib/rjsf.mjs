// Drives an RJSF (@rjsf/core, default theme) form like a person: walks the
// dgui_form's schema in `ui:order`, finds each field by RJSF's id
// (root_<path>), checks its label and input type, fills it, then presses the
// submit button and waits for onSubmit.
import { choices, deref, effective, getAt, propertySchema, sampleValue, settleAt, sleep } from './schema.mjs';
import { classify } from './jsonforms.mjs';

const MAX_ARRAY_DEPTH = 2;
const show = (path) => '/' + path.join('/');
const idOf = (path) => ['root', ...path].join('_');

function same(actual, expected) {
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) < 1e-9;
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** RJSF's default widget (input type) for a classified field, and what ui:widget may change it to. */
function expectedTypes(kind, widget) {
  const byWidget = {
    text: ['text'], textarea: ['textarea'], email: ['email'], uri: ['url'], url: ['url'], date: ['date'],
    datetime: ['datetime-local'], 'date-time': ['datetime-local'], time: ['time'], updown: ['number'],
    range: ['range'], checkbox: ['checkbox'], select: ['select'], radio: ['radio'], password: ['password'],
    checkboxes: ['checkboxes'], hidden: ['hidden'],
  };
  if (widget && byWidget[widget]) return byWidget[widget];
  return {
    text: ['text'], textarea: ['textarea', 'text'], email: ['email'], uri: ['url'], date: ['date'],
    'date-time': ['datetime-local'], time: ['time'], number: ['number', 'range'], boolean: ['checkbox'],
    enum: ['select', 'radio'],
  }[kind] ?? [];
}

function orderedKeys(schema, ui) {
  const keys = Object.keys(schema.properties ?? {});
  const order = ui?.['ui:order'];
  if (!Array.isArray(order)) return keys;
  const rest = keys.filter((k) => !order.includes(k));
  const out = [];
  for (const k of order) {
    if (k === '*') out.push(...rest);
    else if (keys.includes(k)) out.push(k);
  }
  if (!order.includes('*')) out.push(...rest);
  return out;
}

export async function driveRjsf(page, form) {
  const root = form.schema;
  const out = { fields: 0, failures: [], notes: [], fills: [], data: undefined, submitted: undefined };
  const fail = (m) => out.failures.push(m);
  const note = (m) => out.notes.push(m);
  const data = () => page.evaluate(() => window.currentData());

  const settle = (path, ok, ms) => settleAt(data, path, ok, ms);
  const probe = (fn, arg) => page.evaluate(([f, a]) => window.bt[f](a), [fn, arg]);

  async function visitObject(schema, ui, path, depth) {
    const s = effective(schema, root).schema;
    for (const key of orderedKeys(s, ui)) {
      const sub = s.properties[key];
      const subUi = ui?.[key] ?? {};
      const required = Array.isArray(s.required) && s.required.includes(key);
      try {
        await visitField(sub, subUi, [...path, key], { required, name: key, depth });
      } catch (e) {
        fail(`${show([...path, key])}: ${e.message.split('\n')[0]}`);
      }
    }
    // Fields that exist only in a branch (then/else, dependencies): RJSF
    // shows them when the branch applies; the worker's ui:order names them.
    for (const key of (ui?.['ui:order'] ?? []).filter((k) => k !== '*' && !(k in (s.properties ?? {})))) {
      const onScreen = await page.locator(`#${CSS_ESCAPE(idOf([...path, key]))}`).count();
      if (!onScreen) continue;
      const sub = propertySchema(schema, key, root);
      if (!sub) continue;
      try {
        await visitField(sub, ui?.[key] ?? {}, [...path, key], { required: true, name: key, depth });
      } catch (e) {
        fail(`${show([...path, key])}: ${e.message.split('\n')[0]}`);
      }
    }
  }

  async function visitField(raw, ui, path, { name, depth, required, itemOf }) {
    const d = deref(raw ?? {}, root);
    const c = classify(raw, root, {});
    const widget = ui['ui:widget'];
    if (widget === 'hidden') return;
    const label = ui['ui:title'] ?? d.title ?? c.schema.title ?? name;
    const id = idOf(path);
    const where = `${show(path)} "${label}"`;
    // RJSF falls back to the property name; a person should not read "postalCode".
    const rawName = itemOf ? (itemOf.fromName ? itemOf.name : null) : name;
    if (label === name && /[a-z][A-Z]|_/.test(rawName ?? '')) {
      fail(
        itemOf
          ? `${where}: array items are labelled with the raw property name "${label}" (no items "ui:title" and no items title; the array's ui:title "${itemOf.label}" is not used by RJSF for items)`
          : `${where}: label is the raw property name (no ui:title and no title)`,
      );
    }
    const readonly = ui['ui:readonly'] === true || d.readOnly === true;
    out.fields++;

    if (c.kind === 'combinator' || c.kind === 'nullable-combinator') {
      const keyword = Array.isArray(d.oneOf) ? 'oneOf' : 'anyOf';
      const selId = `${id}__${keyword.toLowerCase()}_select`;
      const sel = await probe('rjsfField', selId);
      if (!sel.found) {
        fail(`${where}: ${keyword} field has no alternative selector #${selId}`);
        return;
      }
      const lab = await probe('rjsfField', id);
      const labelText = sel.labelText ?? lab.labelText;
      if (labelText !== label && !(await page.locator(`label[for="${id}"]`).count())) note(`${where}: label "${label}" not found next to the ${keyword} selector`);
      const alts = d[keyword];
      let index = alts.findIndex((a) => deref(a, root)?.type !== 'null');
      const current = await page.locator(sel.sel).inputValue();
      if (deref(alts[Number(current)], root)?.type !== 'null') index = Number(current);
      if (String(index) !== current) await page.locator(sel.sel).selectOption(String(index));
      await sleep(100);
      const alt = deref(alts[index], root);
      const merged = d.type && !alt.type ? { ...alt, type: d.type } : alt;
      out.fields--; // the alternative's own fields are counted
      return visitField(merged, { ...ui, 'ui:widget': undefined }, path, { name, depth, required, itemOf });
    }
    if (c.kind === 'object') {
      const fs = await probe('rjsfLegend', id);
      if (!fs.found) {
        // RJSF stops at a $ref cycle and offers an "Expand Cycle" button.
        const cycle = await page.getByText(new RegExp(`Circular reference .*"${name}"`)).count();
        if (cycle) {
          if (required) {
            await page.getByRole('button', { name: 'Expand Cycle' }).first().click();
            await sleep(100);
            if ((await probe('rjsfLegend', id)).found) return visitField(raw, ui, path, { name, depth, required });
          }
          note(`${where}: RJSF shows "Circular reference ($ref cycle)" with an "Expand Cycle" button instead of the fields`);
          return;
        }
        fail(`${where}: no fieldset #${id}`);
        return;
      }
      if (path.length > 40) {
        note(`${where}: stopped walking at depth ${path.length}`);
        return;
      }
      if (fs.labelText !== label) note(`${where}: fieldset legend reads ${JSON.stringify(fs.labelText)}`);
      out.fields--;
      return visitObject(c.schema, ui, path, depth);
    }
    if (c.kind === 'const') {
      const f = await probe('rjsfField', id);
      if (!f.found) note(`${where}: const ${JSON.stringify(c.schema.const)} has no input (RJSF may hide it)`);
      return;
    }
    if (c.kind === 'enum-array') return fillMulti(c, ui, path, where, id, label);
    if (c.kind.startsWith('array')) return visitArray(c, ui, path, where, id, label, depth);

    // scalars
    const want = expectedTypes(c.kind, widget);
    // RJSF gives type ["number", "null"] no number input (getInputProps only knows "number"/"integer")
    if (c.kind === 'number' && !widget && Array.isArray(d.type)) {
      want.push('text');
      note(`${where}: RJSF renders a nullable number (type ${JSON.stringify(d.type)}) as a text input`);
    }
    const f = c.kind === 'enum' && (widget === 'radio') ? await probe('rjsfRadios', id) : await probe('rjsfField', id);
    if (!f.found) {
      fail(`${where}: no input #${id}`);
      return;
    }
    let type = f.type;
    if (f.tag === 'div' && (await page.locator(`#${CSS_ESCAPE(id)}[role=radiogroup]`).count())) type = 'radio';
    if (f.options && f.tag !== 'select' && !f.type) type = 'radio';
    if (widget === 'radio' || type === 'radio') type = 'radio';
    // an item without a title of its own: RJSF numbers it after the array ("Tags-1", nested "Tags-1-1")
    const numbered = itemOf && !ui['ui:title'] && !d.title && f.labelText && f.labelText.startsWith(itemOf.label) && /(-\d+)+$/.test(f.labelText);
    if (!f.labelText) fail(`${where}: no visible label`);
    else if (f.labelText !== label && !numbered) fail(`${where}: label reads ${JSON.stringify(f.labelText)}, expected ${JSON.stringify(label)}`);
    else if (!f.labelVisible) fail(`${where}: label not visible`);
    if (want.length && !want.includes(type)) fail(`${where}: a ${c.kind} field rendered as input type ${type}; expected ${want.join(' or ')}`);
    if (readonly) return;
    await fillScalar(c, path, where, id, type, label);
  }

  async function fillScalar(c, path, where, id, type, label) {
    let expected = sampleValue(c.schema, label, root);
    const loc = page.locator(`[id="${id}"]`);
    switch (type) {
      case 'checkbox':
        expected = true;
        if (!(await loc.isChecked())) await loc.click();
        break;
      case 'select': {
        const opt = choices(c.schema, root)[0];
        expected = opt.value;
        await loc.selectOption({ label: opt.title });
        break;
      }
      case 'radio': {
        const r = await probe('rjsfRadios', id);
        let o;
        if (c.kind === 'boolean') {
          // boolean radios (approve/reject): pick the "true" answer
          expected = true;
          o = r.options.find((x) => /^(yes|true|approve|approved|accept)$/i.test(x.text)) ?? r.options[0];
        } else {
          const opt = choices(c.schema, root)[0];
          expected = opt.value;
          o = r.options.find((x) => x.text === opt.title) ?? r.options[0];
        }
        await page.locator(o.sel).check();
        break;
      }
      case 'range': {
        const before = getAt(await data(), path);
        await loc.focus();
        const atMax = c.schema.maximum !== undefined && before === c.schema.maximum;
        await page.keyboard.press(atMax ? 'ArrowLeft' : 'ArrowRight');
        const got = await settle(path, (v) => typeof v === 'number' && v !== before);
        if (!got.ok) fail(`${where}: range key press did not change the data`);
        else out.fills.push({ path: show(path), widget: 'range', value: got.value });
        return;
      }
      case 'date':
        expected = '2025-12-25';
        await loc.fill(expected);
        break;
      case 'datetime-local':
        await loc.fill('2025-12-25T08:30');
        {
          const got = await settle(path, (v) => typeof v === 'string' && v.startsWith('2025-12-25T08:30'));
          if (!got.ok) fail(`${where}: set 2025-12-25T08:30, data has ${JSON.stringify(got.value)}`);
          else out.fills.push({ path: show(path), widget: type, value: got.value });
        }
        return;
      case 'time':
        await loc.fill('08:30');
        {
          const got = await settle(path, (v) => typeof v === 'string' && v.startsWith('08:30'));
          if (!got.ok) fail(`${where}: set 08:30, data has ${JSON.stringify(got.value)}`);
          else out.fills.push({ path: show(path), widget: type, value: got.value });
        }
        return;
      default:
        await loc.click();
        await loc.fill('');
        await loc.pressSequentially(String(expected));
    }
    const got = await settle(path, (v) => same(v, expected));
    if (!got.ok) fail(`${where}: entered ${JSON.stringify(expected)} (${type}), data has ${JSON.stringify(got.value)}`);
    else out.fills.push({ path: show(path), widget: type, value: expected });
  }

  async function fillMulti(c, ui, path, where, id, label) {
    const opts = choices(c.items.schema, root);
    const n = Math.max(1, c.schema.minItems ?? 1);
    const expected = opts.slice(0, n).map((o) => o.value);
    const f = await probe('rjsfField', id);
    if (f.found && f.tag === 'select') {
      if (f.labelText !== label) fail(`${where}: label reads ${JSON.stringify(f.labelText)}`);
      await page.locator(f.sel).selectOption(opts.slice(0, n).map((o) => ({ label: o.title })));
    } else {
      const boxes = await probe('rjsfCheckboxes', id);
      if (!boxes.found) {
        fail(`${where}: multi-select has neither <select multiple> nor checkboxes`);
        return;
      }
      if (boxes.labelText !== label) note(`${where}: checkbox group label reads ${JSON.stringify(boxes.labelText)}`);
      for (const o of boxes.options.slice(0, n)) await page.locator(o.sel).check();
    }
    const got = await settle(path, (v) => Array.isArray(v) && expected.every((e) => v.includes(e)));
    if (!got.ok) fail(`${where}: chose ${JSON.stringify(expected)}, data has ${JSON.stringify(got.value)}`);
    else out.fills.push({ path: show(path), widget: 'multi', value: got.value });
  }

  async function visitArray(c, ui, path, where, id, label, depth) {
    const a = await probe('rjsfArray', id);
    if (!a.found) {
      fail(`${where}: no array fieldset #${id}`);
      return;
    }
    if (a.labelText !== label) fail(`${where}: array title reads ${JSON.stringify(a.labelText)}, expected ${JSON.stringify(label)}`);
    let count = (getAt(await data(), path) ?? []).length;
    const want = Math.max(c.schema.minItems ?? 0, count === 0 && depth < MAX_ARRAY_DEPTH ? 1 : 0);
    while (count < want) {
      if (!a.add) {
        fail(`${where}: no add button`);
        return;
      }
      await page.locator(a.add).click();
      const got = await settle(path, (v) => Array.isArray(v) && v.length === count + 1);
      if (!got.ok) {
        fail(`${where}: clicking Add did not add an item`);
        return;
      }
      count++;
    }
    if (!count) return;
    out.fields--;
    const index = count - 1;
    // RJSF labels an item `${schema.title || name}-${n}` unless the item has its own title
    const arrayName = path[path.length - 1];
    const arrayTitle = deref(c.schema, root).title ?? (typeof arrayName === 'number' ? label : undefined);
    const itemName = `${arrayTitle ?? arrayName}-${index + 1}`;
    await visitField(c.schema.items ?? {}, ui.items ?? {}, [...path, index], {
      name: itemName,
      depth: depth + 1,
      required: true,
      itemOf: { name: String(arrayName), label, fromName: arrayTitle === undefined },
    });
  }

  if (effective(root, root).schema.type === 'object') await visitObject(root, form.uiSchema ?? {}, [], 0);
  else await visitField(root, form.uiSchema ?? {}, [], { name: root.title ?? 'root', depth: 0, required: true });
  out.data = await data();

  // submit like a person
  const submit = page.locator('form.rjsf button[type=submit]');
  if (!(await submit.count())) fail('no submit button');
  else {
    const text = (await submit.first().textContent())?.trim();
    const wanted = form.uiSchema?.['ui:submitButtonOptions']?.submitText;
    if (wanted && text !== wanted) fail(`submit button reads ${JSON.stringify(text)}, uiSchema asks for ${JSON.stringify(wanted)}`);
    await submit.first().click();
    const t0 = Date.now();
    let res;
    while (Date.now() - t0 < 3000) {
      res = await page.evaluate(() => ({ submitted: window.submitted, errors: window.rjsfErrors }));
      if (res.submitted || res.errors) break;
      await sleep(50);
    }
    if (res.submitted) out.submitted = res.submitted;
    else {
      // the browser's own constraint validation (min/max/step/type) can block the submit event
      const native = await page.evaluate(() =>
        [...document.querySelectorAll('form.rjsf input, form.rjsf select, form.rjsf textarea')]
          .filter((el) => !el.checkValidity())
          .map((el) => ({ id: el.id, value: el.value, step: el.getAttribute('step'), message: el.validationMessage })),
      );
      fail(
        `onSubmit did not fire; RJSF errors: ${JSON.stringify(res.errors ?? [])}` +
          (native.length ? `; the browser blocks the submit: ${JSON.stringify(native)}` : ''),
      );
    }
  }
  return out;
}

// CSS.escape for ids made of [A-Za-z0-9_-]; other characters are escaped.
function CSS_ESCAPE(s) {
  return String(s).replace(/[^A-Za-z0-9_-]/g, (ch) => `\\${ch}`);
}
