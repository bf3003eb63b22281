// Drives a format=a2ui surface rendered by CopilotKit's A2UI renderer
// (@copilotkit/a2ui-renderer, src/copilotkit.jsx) like a person: each input
// component is found by its accessible label (CopilotKit associates
// <label for>), given a valid value for its field, and the surface's own
// submit (or Approve) button is pressed. Returns what the renderer handed
// its host, {userAction}, for the runner to POST to /v1/submit.
//
// Inside List items, the text fields the pre-filled items leave empty are
// completed; a required list with no item gets one with its Add button,
// which the page's host applies (src/copilotkit.jsx).
import { itemSchemaAt, relativeSchema, schemaAt, templated, typed, valueFor } from './a2ui.mjs';
import { sleep } from './schema.mjs';

const INPUTS = new Set(['TextField', 'CheckBox', 'ChoicePicker', 'DateTimeInput', 'Slider']);

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Opens the tab (steps are Tabs) that shows the text `label`, if one must be. */
async function reveal(page, label, tabs) {
  const shown = () => page.locator('#copilotkit-host').getByText(label, { exact: true }).first().isVisible();
  if (await shown()) return;
  for (const title of tabs) {
    await page.locator('#copilotkit-host button').filter({ hasText: new RegExp(`^${escapeRegExp(title)}$`) }).first().click();
    await sleep(50);
    if (await shown()) return;
  }
}

async function fill(page, comp, nth, schema, value) {
  const host = page.locator('#copilotkit-host');
  switch (comp.component) {
    case 'TextField':
      await host.getByLabel(comp.label, { exact: true }).nth(nth).fill(typed(comp, schema, value));
      return;
    case 'CheckBox': {
      const box = host.getByLabel(comp.label, { exact: true }).nth(nth);
      if (value === true) await box.check();
      else await box.uncheck();
      return;
    }
    case 'ChoicePicker': {
      // The group's label is a <strong> before its radios or checkboxes.
      const group = host.locator('strong').filter({ hasText: new RegExp(`^${escapeRegExp(comp.label)}$`) }).nth(nth).locator('xpath=..');
      for (const v of [].concat(value)) {
        const option = comp.options.find((o) => o.value === (typeof v === 'string' ? v : JSON.stringify(v)));
        if (!option) throw new Error(`no option for ${JSON.stringify(v)}`);
        await group.locator('label').filter({ hasText: new RegExp(`^${escapeRegExp(option.label)}$`) }).locator('input').first().check();
      }
      return;
    }
    case 'DateTimeInput': {
      const input = host.getByLabel(comp.label, { exact: true }).nth(nth);
      const type = await input.getAttribute('type');
      const text = String(value);
      const date = text.slice(0, 10);
      const time = (text.includes('T') ? text.split('T')[1] : text).slice(0, 5);
      await input.fill(type === 'date' ? date : type === 'time' ? time : `${date}T${time}`);
      return;
    }
    case 'Slider':
      await host.getByLabel(comp.label, { exact: true }).nth(nth).fill(String(value));
      return;
    default:
      throw new Error(`unknown input ${comp.component}`);
  }
}

/** Presses Add on each required list that has no item, as a person must. */
async function addRequiredItems(page, components, output) {
  const model = (await page.evaluate(() => window.copilotKitDataModel())) ?? {};
  for (const list of components.filter((c) => c.component === 'List' && c.children?.path?.startsWith('/'))) {
    const path = list.children.path;
    const tokens = path.split('/').slice(1);
    const parent = schemaAt(output, tokens.length > 1 ? `/${tokens.slice(0, -1).join('/')}` : '') ?? output;
    const required = parent.required?.includes(tokens.at(-1)) || (schemaAt(output, path)?.minItems ?? 0) > 0;
    const current = tokens.reduce((v, k) => v?.[k], model);
    if (!required || (Array.isArray(current) && current.length)) continue;
    const add = components.find((c) => c.component === 'Button' && c.action?.event?.name === 'genui.addItem' && c.action.event.context.array === path);
    const text = add && components.find((c) => c.id === add.child)?.text;
    if (text) await page.locator('#copilotkit-host button').filter({ hasText: text }).first().click();
    await sleep(100);
  }
}

export async function driveCopilotKit(page, wrapper, output) {
  const components = wrapper.messages[1].updateComponents.components;
  const inItem = templated(components);
  const out = { fields: 0, failures: [], notes: [], message: null };
  const seen = new Map();
  const tabs = components.filter((c) => c.component === 'Tabs').flatMap((c) => c.tabs.map((t) => t.title));
  await addRequiredItems(page, components, output);
  for (const comp of components.filter((c) => INPUTS.has(c.component) && !inItem.has(c.id))) {
    const path = comp.value?.path;
    if (typeof path !== 'string' || !path.startsWith('/')) {
      out.failures.push(`${comp.id}: input not bound to an absolute data path`);
      continue;
    }
    // Several fields may share a label: the n-th component is the n-th on screen.
    const nth = seen.get(comp.label) ?? 0;
    seen.set(comp.label, nth + 1);
    const schema = schemaAt(output, path);
    const value = valueFor(schema, comp, output);
    out.fields += 1;
    try {
      if (tabs.length) await reveal(page, comp.label, tabs);
      await fill(page, comp, nth, schema, value);
    } catch (e) {
      out.failures.push(`${comp.id} (${comp.label}): could not fill ${JSON.stringify(value)}: ${e.message.split('\n')[0]}`);
    }
  }
  for (const comp of components.filter((c) => c.component === 'TextField' && inItem.has(c.id))) {
    const schema = relativeSchema(itemSchemaAt(output, inItem.get(comp.id)) ?? {}, comp.value?.path ?? '', output);
    if (!schema) continue;
    const inputs = page.locator('#copilotkit-host').getByLabel(comp.label, { exact: true });
    for (let i = 0; i < (await inputs.count()); i++) {
      if ((await inputs.nth(i).inputValue()) !== '') continue;
      out.fields += 1;
      await inputs.nth(i).fill(typed(comp, schema, valueFor(schema, comp, output))).catch((e) => out.failures.push(`${comp.id} item ${i}: ${e.message.split('\n')[0]}`));
    }
  }
  const approve = components.find((c) => c.id === 'approve');
  if (approve) out.fields += 1; // the decision is made with its buttons
  const buttonText = approve ? 'Approve' : 'Submit';
  const button = page.locator('#copilotkit-host button').filter({ hasText: buttonText }).first();
  await sleep(100);
  if (await button.isDisabled()) {
    const shown = await page.locator('#copilotkit-host span[style*="color: red"]').allTextContents();
    out.failures.push(`the ${buttonText} button stays disabled after filling (checks failing): ${JSON.stringify(shown.slice(0, 8))}`);
    return out;
  }
  await button.click();
  out.message = await page
    .waitForFunction(() => window.copilotKitActions.find((m) => m.userAction?.name === 'genui.submit'), null, { timeout: 3000 })
    .then((h) => h.jsonValue())
    .catch(() => null);
  if (!out.message) out.failures.push(`pressing ${buttonText} handed the host no genui.submit action`);
  return out;
}
