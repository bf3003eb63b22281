// Drives a JSON Forms (material renderers) form the way a person does:
// walks the worker's uiSchema (and, where JSON Forms generates the UI
// itself - object renderer, array details, combinator alternatives - the
// same generated uiSchema, from @jsonforms/core), finds each control by the
// label on screen, checks its widget, fills it with clicks and key presses,
// and checks that the form data follows.
import { Generate } from '@jsonforms/core';
import {
  choices,
  deref,
  effective,
  getAt,
  isRequired,
  resolveScope,
  ruleShows,
  sampleValue,
  settleAt,
  sleep,
  startCase,
} from './schema.mjs';

const MAX_ARRAY_DEPTH = 2;

/** Which widgets are right for a field, by what the schema and uiSchema ask for. */
export function expectedWidgets(kind, options = {}) {
  switch (kind) {
    case 'text':
      return ['text', 'textarea'];
    case 'textarea':
      return ['textarea'];
    case 'email':
      return ['text', 'email'];
    case 'uri':
      return ['text', 'url'];
    case 'number':
      return options.slider ? ['slider'] : ['number', 'slider'];
    case 'boolean':
      // format "radio" (approve/reject): JSON Forms has a radio group only for const/enum booleans
      if (options.format === 'radio') return ['radio', 'checkbox', 'switch'];
      return options.toggle ? ['switch'] : ['checkbox', 'switch'];
    case 'enum':
      return options.format === 'radio' ? ['radio'] : ['combobox', 'select', 'radio'];
    case 'date':
      return ['date'];
    case 'time':
      return ['time'];
    case 'date-time':
      return ['datetime'];
    case 'enum-array':
      return ['checkbox-group'];
    case 'array-scalar':
      return ['array-table', 'array-layout'];
    case 'array-object':
    case 'array-array':
      return ['array-layout', 'array-table'];
    case 'object':
      return ['group'];
    default:
      return [];
  }
}

/** Classifies a field schema the way a renderer has to show it. */
export function classify(raw, root, options = {}) {
  const d = deref(raw ?? {}, root);
  const eff = effective(raw ?? {}, root);
  const s = eff.schema;
  if (eff.nullableCombinator) return { kind: 'nullable-combinator', schema: s, eff };
  // a const is shown (as a one-choice select/radio in JSON Forms, an input in RJSF), never typed
  if (s.const !== undefined) return { kind: 'const', schema: s, eff };
  const ch = choices(s, root);
  if (ch) return { kind: 'enum', schema: s, choices: ch, eff };
  if ((Array.isArray(d.oneOf) || Array.isArray(d.anyOf)) && !d.allOf) return { kind: 'combinator', schema: d, eff };
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'object') return { kind: 'object', schema: s, eff };
  if (type === 'array') {
    const items = effective(s.items ?? {}, root);
    const itemType = Array.isArray(items.schema.type) ? items.schema.type[0] : items.schema.type;
    if (choices(items.schema, root) && s.uniqueItems) return { kind: 'enum-array', schema: s, items, eff };
    if (itemType === 'object') return { kind: 'array-object', schema: s, items, eff };
    if (itemType === 'array') return { kind: 'array-array', schema: s, items, eff };
    return { kind: 'array-scalar', schema: s, items, eff };
  }
  if (type === 'boolean') return { kind: 'boolean', schema: s, eff };
  if (type === 'number' || type === 'integer') return { kind: 'number', schema: s, eff };
  if (s.const !== undefined && !type) return { kind: 'const', schema: s, eff };
  if (type === 'string') {
    if (s.format === 'date') return { kind: 'date', schema: s, eff };
    if (s.format === 'time') return { kind: 'time', schema: s, eff };
    if (s.format === 'date-time') return { kind: 'date-time', schema: s, eff };
    if (options.multi) return { kind: 'textarea', schema: s, eff };
    if (s.format === 'email') return { kind: 'email', schema: s, eff };
    if (s.format === 'uri' || s.format === 'url') return { kind: 'uri', schema: s, eff };
    return { kind: 'text', schema: s, eff };
  }
  if (s.const !== undefined) return { kind: 'const', schema: s, eff };
  return { kind: 'unknown', schema: s, eff };
}

const show = (path) => '/' + path.join('/');

function same(actual, expected) {
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) < 1e-9;
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/**
 * Renders `response` in the page and drives it. Returns
 * {fields, failures, notes, fills, data}.
 */
export async function driveJsonForms(page, response, { fixture } = {}) {
  const root = response.jsonSchema;
  const out = { fields: 0, failures: [], notes: [], fills: [], data: undefined };
  const fail = (msg) => out.failures.push(msg);
  const note = (msg) => out.notes.push(msg);

  const data = () => page.evaluate(() => window.currentData());

  /** Waits until the data at path satisfies `ok`; returns the last value seen. */
  const settle = (path, ok, ms) => settleAt(data, path, ok, ms);

  async function find(container, label, want) {
    return page.evaluate(([c, l, w]) => window.bt.findControl(c, l, w), [container, label, want]);
  }

  // ------------------------------------------------------------ layouts

  /** Whether an element's rule (if any) lets it show with the data now. */
  async function shownByRule(el, ctx) {
    if (!el.rule) return true;
    const scope = el.rule.condition?.scope ?? '#';
    const segments = scope === '#' ? [] : resolveScope(ctx.base, scope, root).segments;
    return ruleShows(el.rule, getAt(await data(), [...ctx.path, ...segments]));
  }

  async function visit(el, ctx) {
    if (!(await shownByRule(el, ctx))) {
      // Hidden by its rule: it must not be on screen, and is not filled.
      const label = el.label ?? el.text;
      out.hiddenByRule = (out.hiddenByRule ?? 0) + 1;
      if (label) {
        const r = await find(ctx.container, label, []);
        if (r.found && r.inputVisible) fail(`${el.scope ?? el.type} "${label}": shown although its rule hides it`);
      }
      return;
    }
    switch (el.type) {
      case 'VerticalLayout':
      case 'HorizontalLayout':
        for (const child of el.elements ?? []) await visit(child, ctx);
        return;
      case 'Group': {
        if (!el.label) {
          for (const child of el.elements ?? []) await visit(child, ctx);
          return;
        }
        const g = await find(ctx.container, el.label, ['group']);
        if (!g.found || g.widget !== 'group') {
          fail(`${show(ctx.path)}: group "${el.label}" is not on screen (labels seen: ${JSON.stringify(g.labels ?? g.widget)})`);
          return;
        }
        if (!g.labelVisible) fail(`${show(ctx.path)}: the title of group "${el.label}" is not visible`);
        for (const child of el.elements ?? []) await visit(child, { ...ctx, container: g.root });
        return;
      }
      case 'Categorization': {
        for (const cat of el.elements ?? []) {
          const tab = page.locator(ctx.container ?? '#root').getByRole('tab', { name: cat.label, exact: true });
          const step = page.locator(ctx.container ?? '#root').getByRole('button', { name: cat.label });
          if (await tab.count()) await tab.first().click();
          else if (await step.count()) await step.first().click();
          else fail(`category "${cat.label}" has no tab or step on screen`);
          await sleep(100);
          // React reuses the DOM nodes of the step before for this one: the
          // marks of controls already checked must not hide the new ones.
          await page.evaluate(() => document.querySelectorAll('[data-bt-used]').forEach((e) => delete e.dataset.btUsed));
          for (const child of cat.elements ?? []) await visit(child, ctx);
        }
        return;
      }
      case 'Category':
        for (const child of el.elements ?? []) await visit(child, ctx);
        return;
      case 'Label': {
        if (!el.text) return;
        const shown = await page.locator(ctx.container ?? '#root').getByText(el.text, { exact: false }).first().isVisible().catch(() => false);
        if (!shown) fail(`Label "${el.text.slice(0, 60)}" is not visible`);
        return;
      }
      case 'Control':
        try {
          return await visitControl(el, ctx);
        } catch (e) {
          fail(`${el.scope} "${el.label ?? ''}": ${process.env.BT_DEBUG ? e.stack : e.message.split('\n')[0]}`);
          return;
        }
      default:
        fail(`unknown uiSchema element type ${el.type}`);
    }
  }

  // ------------------------------------------------------------ controls

  async function visitControl(el, ctx) {
    let resolved;
    try {
      resolved = resolveScope(ctx.base, el.scope, root);
    } catch (e) {
      fail(`${el.scope}: ${e.message}`);
      return;
    }
    const path = [...ctx.path, ...resolved.segments];
    const options = el.options ?? {};
    const c = classify(resolved.schema, root, options);
    const d = deref(resolved.schema ?? {}, root);
    const label = typeof el.label === 'string' ? el.label : d.title ?? c.schema.title ?? (resolved.name ? startCase(resolved.name) : '');
    const required = resolved.parent ? isRequired(resolved.parent, resolved.name, root) : false;
    const readonly = options.readonly === true || d.readOnly === true || c.schema.readOnly === true;
    const where = `${show(path)} "${label}"`;
    out.fields++;

    if (c.kind === 'combinator' || c.kind === 'nullable-combinator') return visitCombinator(el, ctx, { c, d, path, label, required, readonly, where });

    const want = expectedWidgets(c.kind, options);
    const r = await find(ctx.container, label, want);
    if (!r.found) {
      fail(`${where}: no control labelled "${label}" on screen for a ${c.kind} field (labels seen: ${JSON.stringify(r.labels)})`);
      return;
    }
    if (label === '') note(`${where}: a ${c.kind} field with no label (its schema has no title)`);
    else if (!r.labelVisible) fail(`${where}: label not visible`);
    if (want.length && !want.includes(r.widget)) {
      fail(`${where}: a ${c.kind} field rendered as ${r.widget}; expected ${want.join(' or ')}`);
      return;
    }
    if (!['group'].includes(r.widget) && !r.inputVisible) fail(`${where}: its ${r.widget} input is not visible`);

    if (readonly || c.kind === 'const') {
      const disabled = r.input ? await page.locator(r.input).isDisabled().catch(() => null) : null;
      if (disabled === false && ['text', 'number', 'textarea'].includes(r.widget)) note(`${where}: read-only field is editable`);
      return;
    }

    switch (r.widget) {
      case 'group':
        return visitObject(el, ctx, { c, path, label, container: r.root });
      case 'array-layout':
      case 'array-table':
        return visitArray(el, ctx, { c, path, label, r, required });
      case 'checkbox-group':
        return fillCheckboxGroup({ c, path, where, r });
      default:
        return fillScalar({ c, path, label, where, r, required });
    }
  }

  async function fillScalar({ c, path, label, where, r }) {
    const s = c.schema;
    let expected = sampleValue(s, label, root);
    const inputLoc = page.locator(r.input);
    switch (r.widget) {
      case 'text':
      case 'email':
      case 'url':
      case 'textarea':
      case 'number': {
        const typed = String(expected);
        await inputLoc.click();
        await inputLoc.fill('');
        await inputLoc.pressSequentially(typed);
        await inputLoc.press('Tab');
        break;
      }
      case 'checkbox':
      case 'switch': {
        expected = true;
        if (!(await inputLoc.isChecked())) await inputLoc.click();
        break;
      }
      case 'combobox': {
        const opt = (c.choices ?? choices(s, root))[0];
        expected = opt.value;
        await inputLoc.click();
        await inputLoc.fill('');
        await inputLoc.pressSequentially(opt.title);
        const option = page.getByRole('option', { name: opt.title, exact: true });
        await option.first().waitFor({ state: 'visible', timeout: 3000 });
        await option.first().click();
        break;
      }
      case 'radio': {
        const opt = c.kind === 'boolean' ? { value: true, title: 'true' } : (c.choices ?? choices(s, root))[0];
        expected = opt.value;
        await page.locator(r.root).getByRole('radio', { name: opt.title, exact: true }).check();
        break;
      }
      case 'select': {
        const opt = (c.choices ?? choices(s, root))[0];
        expected = opt.value;
        await inputLoc.selectOption({ label: opt.title });
        break;
      }
      case 'slider': {
        const before = getAt(await data(), path);
        await inputLoc.focus();
        const atMax = s.maximum !== undefined && before === s.maximum;
        await page.keyboard.press(atMax ? 'ArrowLeft' : 'ArrowRight');
        const got = await settle(path, (v) => typeof v === 'number' && v !== before);
        if (!got.ok) fail(`${where}: slider key press did not change the data (still ${JSON.stringify(got.value)})`);
        else out.fills.push({ path: show(path), widget: 'slider', value: got.value });
        return;
      }
      case 'date':
        return pickDate({ path, where, r, kind: 'date' });
      case 'time':
        return pickDate({ path, where, r, kind: 'time' });
      case 'datetime':
        return pickDate({ path, where, r, kind: 'datetime' });
      default:
        fail(`${where}: no way to fill a ${r.widget}`);
        return;
    }
    const got = await settle(path, (v) => same(v, expected));
    if (!got.ok) fail(`${where}: typed/selected ${JSON.stringify(expected)} in the ${r.widget}, data has ${JSON.stringify(got.value)}`);
    else out.fills.push({ path: show(path), widget: r.widget, value: expected });
  }

  // Until `locator` matches one element (at most 3 s).
  async function waitForOne(locator) {
    for (let waited = 0; waited < 3000 && (await locator.count()) !== 1; waited += 50) await sleep(50);
  }

  // MUI X pickers: typing into the sectioned field does not reach JSON Forms
  // (it listens to onAccept and to blur of the hidden input), so a person
  // uses the calendar / clock popup, as done here.
  async function pickDate({ path, where, r, kind }) {
    const button = page.locator(r.root).locator('button[aria-label^="Choose"]');
    await button.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible', timeout: 3000 });
    if (kind === 'date' || kind === 'datetime') {
      const header = dialog.locator('.MuiPickersCalendarHeader-label').first();
      const yearButton = dialog.locator('button', { hasText: /^2025$/ });
      await sleep(350); // the popup's opening transition
      for (let attempt = 0; attempt < 3; attempt++) {
        if ((await yearButton.count()) || /2025/.test((await header.textContent().catch(() => '')) ?? '')) break;
        // open the year view from the calendar header
        await dialog.getByRole('button', { name: /switch to year view/ }).click();
        await yearButton.first().waitFor({ state: 'attached', timeout: 2000 }).catch(() => {});
      }
      if (await yearButton.count()) {
        await yearButton.first().scrollIntoViewIfNeeded();
        await yearButton.first().click();
        await header.waitFor({ state: 'visible', timeout: 3000 });
      }
      for (let i = 0; i < 24; i++) {
        const header = (await dialog.locator('.MuiPickersCalendarHeader-label').first().textContent()) ?? '';
        if (/December 2025/.test(header)) break;
        const [mon, yr] = header.trim().split(/\s+/);
        const cur = new Date(`${mon} 1, ${yr}`);
        const goBack = cur > new Date('2025-12-01T12:00:00Z');
        await dialog.getByRole('button', { name: goBack ? 'Previous month' : 'Next month' }).click();
        await sleep(80);
      }
      // A month change slides the old month out beside the new one (375 ms);
      // a click before it ends can land on the leaving month, which takes
      // none. So wait until one month is left.
      await waitForOne(dialog.locator('.MuiDayCalendar-monthContainer'));
      await dialog.locator('button[role=gridcell]:not(.MuiPickersDay-dayOutsideMonth)', { hasText: /^25$/ }).first().click();
    }
    if (kind === 'time' || kind === 'datetime') {
      await sleep(100);
      await dialog.getByRole('option', { name: '8 hours', exact: true }).click();
      await dialog.getByRole('option', { name: '30 minutes', exact: true }).click();
    }
    // Desktop pickers close on the last selection; if not, accept with Enter.
    await dialog.waitFor({ state: 'hidden', timeout: 2000 }).catch(async () => {
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden', timeout: 2000 }).catch(() => {});
    });
    const ok = {
      date: (v) => v === '2025-12-25',
      time: (v) => typeof v === 'string' && v.startsWith('08:30'),
      datetime: (v) => typeof v === 'string' && v.startsWith('2025-12-25T08:30'),
    }[kind];
    const got = await settle(path, ok);
    if (!got.ok) fail(`${where}: picked 2025-12-25 08:30 in the ${kind} picker, data has ${JSON.stringify(got.value)}`);
    else out.fills.push({ path: show(path), widget: kind, value: got.value });
  }

  async function fillCheckboxGroup({ c, path, where, r }) {
    const opts = choices(c.items.schema, root);
    const n = Math.max(1, c.schema.minItems ?? 1);
    const expected = opts.slice(0, n).map((o) => o.value);
    for (const o of opts.slice(0, n)) {
      const box = page.locator(r.root).getByRole('checkbox', { name: o.title, exact: true });
      if (!(await box.isChecked())) await box.check();
    }
    const got = await settle(path, (v) => Array.isArray(v) && expected.every((e) => v.includes(e)));
    if (!got.ok) fail(`${where}: ticked ${JSON.stringify(expected)}, data has ${JSON.stringify(got.value)}`);
    else out.fills.push({ path: show(path), widget: 'checkbox-group', value: got.value });
  }

  // ------------------------------------------------------------ objects, arrays, combinators

  async function visitObject(el, ctx, { c, path, label, container }) {
    // MaterialObjectRenderer shows Generate.uiSchema(schema, 'Group') with the control's label.
    const ui = Generate.uiSchema(c.schema, 'VerticalLayout', undefined, root);
    for (const child of ui.elements ?? []) await visit(child, { ...ctx, container, base: c.schema, path });
  }

  async function visitArray(el, ctx, { c, path, label, r, required }) {
    const where = `${show(path)} "${label}"`;
    const depth = ctx.arrayDepth ?? 0;
    let count = (getAt(await data(), path) ?? []).length;
    const want = Math.max(c.schema.minItems ?? 0, count === 0 && depth < MAX_ARRAY_DEPTH ? 1 : 0);
    const add = page.locator(r.root).locator('button[aria-label^="Add to"], button[aria-label="Add button"]').first();
    if (!(await add.count())) {
      fail(`${where}: array has no "Add to …" button`);
      return;
    }
    while (count < want) {
      await add.click();
      const got = await settle(path, (v) => Array.isArray(v) && v.length === count + 1);
      if (!got.ok) {
        fail(`${where}: clicking "Add" did not add an item (data ${JSON.stringify(got.value)})`);
        return;
      }
      count++;
    }
    if (count === 0) {
      note(`${where}: left empty (array depth ${depth})`);
      return;
    }
    const itemsRaw = c.schema.items ?? {};
    const itemClass = classify(itemsRaw, root);
    if (r.widget === 'array-table') {
      const rows = await page.evaluate((sel) => window.bt.tableRows(sel), r.root);
      if (!rows.length) {
        fail(`${where}: table shows no row for its ${count} item(s)`);
        return;
      }
      const row = rows[rows.length - 1];
      const index = rows.length - 1;
      if (itemClass.kind === 'object') {
        const props = Object.keys(itemClass.schema.properties ?? {});
        for (let k = 0; k < Math.min(props.length, row.cells.length); k++) {
          const ps = classify(itemClass.schema.properties[props[k]], root);
          await fillCell(row.cells[k], ps, [...path, index, props[k]], `${where}[${index}].${props[k]}`);
        }
      } else {
        await fillCell(row.cells[0], itemClass, [...path, index], `${where}[${index}]`);
      }
      return;
    }
    // array layout: expandable panels, detail = options.detail or generated
    const panels = await page.evaluate((sel) => window.bt.arrayPanels(sel), r.root);
    if (panels.length !== count) fail(`${where}: ${count} item(s) in data, ${panels.length} panel(s) on screen`);
    const index = panels.length - 1;
    if (index < 0) return;
    const p = panels[index];
    if (!p.expanded) await page.locator(p.summary).click();
    if (!p.region) {
      fail(`${where}: item ${index} has no detail region`);
      return;
    }
    const regionSel = p.region;
    await page.locator(regionSel).waitFor({ state: 'visible', timeout: 3000 }).catch(() => fail(`${where}: item ${index} does not expand`));
    const itemSchema = deref(itemsRaw, root);
    const detail =
      el.options?.detail && typeof el.options.detail === 'object' && el.options.detail.type
        ? el.options.detail
        : Generate.uiSchema(itemSchema, 'VerticalLayout', undefined, root);
    const itemPath = [...path, index];
    if (itemClass.kind === 'object' || detail.type !== 'Control') {
      for (const child of detail.elements ?? [detail]) {
        await visit(child, { ...ctx, container: regionSel, base: itemSchema, path: itemPath, arrayDepth: depth + 1 });
      }
    }
  }

  async function fillCell(cell, cls, path, where) {
    if (!cell) {
      fail(`${where}: no input in the table row`);
      return;
    }
    out.fields++;
    const loc = page.locator(cell.sel);
    let expected = sampleValue(cls.schema, 'item', root);
    if (cell.type === 'checkbox') {
      expected = true;
      if (!(await loc.isChecked())) await loc.click();
    } else if (cell.type === 'select') {
      await loc.selectOption({ label: String(choices(cls.schema, root)[0].title) });
      expected = choices(cls.schema, root)[0].value;
    } else if (cell.role === 'combobox') {
      const opt = choices(cls.schema, root)[0];
      expected = opt.value;
      await loc.click();
      await loc.pressSequentially(opt.title);
      await page.getByRole('option', { name: opt.title, exact: true }).first().click();
    } else {
      await loc.click();
      await loc.fill('');
      await loc.pressSequentially(String(expected));
      await loc.press('Tab');
    }
    const got = await settle(path, (v) => same(v, expected));
    if (!got.ok) fail(`${where}: typed ${JSON.stringify(expected)} in a table cell, data has ${JSON.stringify(got.value)}`);
    else out.fills.push({ path: show(path), widget: `cell:${cell.type}`, value: expected });
  }

  async function visitCombinator(el, ctx, { c, d, path, label, where }) {
    const keyword = Array.isArray(d.oneOf) ? 'oneOf' : 'anyOf';
    const alts = d[keyword];
    const tabs = await page.evaluate((cont) => window.bt.findTabs(cont), ctx.container);
    // A label of the control would sit just before the tabs; JSON Forms'
    // combinator renderers show none.
    const lab = await find(ctx.container, label, []);
    if (!tabs.found) {
      fail(`${where}: ${keyword} field shows no alternatives (tabs)`);
      return;
    }
    const generic = tabs.tabs.every((t) => /^(oneof|anyof)-\d+$/i.test(t.text));
    if (c.kind === 'nullable-combinator') {
      fail(
        `${where}: nullable ${keyword} [${alts.map((a) => deref(a, root).type ?? '?').join(', ')}] renders as combinator tabs ` +
          `${JSON.stringify(tabs.tabs.map((t) => t.text))} ${lab.found ? '' : 'with no label "' + label + '" on screen'}`,
      );
    } else if (!lab.found) {
      note(`${where}: ${keyword} renders as tabs ${JSON.stringify(tabs.tabs.map((t) => t.text))}; the label "${label}" is not shown (JSON Forms combinator renderers show no label)`);
    }
    if (generic && c.kind !== 'nullable-combinator') note(`${where}: alternatives have no titles, tabs read ${JSON.stringify(tabs.tabs.map((t) => t.text))}`);
    // Fill the alternative a person needs: the selected one unless it is `null`.
    let index = tabs.tabs.findIndex((t) => t.selected);
    if (index < 0) index = 0;
    if (deref(alts[index], root)?.type === 'null') index = alts.findIndex((a) => deref(a, root)?.type !== 'null');
    if (!tabs.tabs[index].selected) {
      await page.locator(tabs.tabs[index].sel).click();
      const yes = page.getByRole('dialog').getByRole('button', { name: /^yes$/i });
      if (await yes.count().catch(() => 0)) await yes.click();
      await sleep(150);
    }
    const alt = deref(alts[index], root);
    const altMerged = d.type && !alt.type ? { ...alt, type: d.type } : alt;
    const ui = Generate.uiSchema(altMerged, 'VerticalLayout', undefined, root);
    // the panel is re-rendered when the tab changes: find it again
    const panel = await page.evaluate((sel) => {
      const r = document.querySelector(sel);
      const tabsRoot = r && r.querySelector('.MuiTabs-root');
      return tabsRoot && tabsRoot.nextElementSibling ? window.bt.mark(tabsRoot.nextElementSibling) : sel;
    }, tabs.root);
    const sub = { ...ctx, container: panel, base: altMerged, path };
    if (ui.type === 'Control') {
      // a primitive alternative: one control with scope "#", labelled by the alternative's title
      await visitControl({ ...ui, label: alt.title ?? '' }, sub);
    } else {
      for (const child of ui.elements ?? []) await visit(child, sub);
    }
  }

  await visit(response.uiSchema, { container: null, base: root, path: [] });
  out.data = await data();
  return out;
}
