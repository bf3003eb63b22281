// Browser tests of the playground the worker serves at `/` (playground/):
// in Debian's headless Chromium, for every example of the protocols' documents
// (and the few fixture examples): pick it, Generate, see JSON Forms and RJSF
// render, fill the required fields like a person (in RJSF, whose native
// inputs are found by id), submit, and see the AG-UI tool message. Plus a
// JSON Forms submission, and an invalid one whose 422 field errors must be
// shown next to the fields and raw. A screenshot per example goes to
// screenshots/playground/.
//
//   cd tests/browser && node --test playground.mjs     (npm test runs it too)
//
// Environment: GENUI_BASE_URL (a running worker instead of starting
// `wrangler dev`), GENUI_PLAYGROUND_EXAMPLES (comma-separated example ids),
// GENUI_BROWSER_STARTUP_SECS, CHROMIUM_PATH: as in run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { choices, effective, sampleValue, validate, submittedData } from './lib/schema.mjs';
import { BROWSER_DIR, CHROMIUM_ARGS, postJson, workerForTests } from './lib/servers.mjs';

const SHOTS = join(BROWSER_DIR, 'screenshots', 'playground');
const ONLY = process.env.GENUI_PLAYGROUND_EXAMPLES?.split(',').map((s) => s.trim()).filter(Boolean);

const state = { worker: null, baseUrl: null, browser: null, context: null, page: null, problems: [] };

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  Object.assign(state, await workerForTests());
  state.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  state.context = await state.browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: 'UTC', locale: 'en-US' });
  // The page must work with the worker alone: anything beyond it is aborted
  // and counted as a problem.
  await state.context.route(/.*/, (route) => {
    const url = route.request().url();
    if (url.startsWith(state.baseUrl + '/')) return route.continue();
    state.problems.push(`request beyond the worker: ${url}`);
    return route.abort();
  });
  state.page = await state.context.newPage();
  state.page.setDefaultTimeout(10_000);
  state.page.on('pageerror', (e) => state.problems.push(`uncaught: ${e.message}`));
  state.page.on('console', (m) => {
    if (m.type() === 'error') state.problems.push(`console error: ${m.text().slice(0, 300)}`);
  });
}, { timeout: 400_000 });

after(async () => {
  await state.browser?.close().catch(() => {});
  await state.worker?.stop().catch(() => {});
});

/** Problems seen since the last call (uncaught errors, console errors, outside requests). */
function takeProblems() {
  const p = state.problems;
  state.problems = [];
  // React/MUI nesting warnings of the renderer libraries (see run.mjs UPSTREAM_NOISE) are not the page's.
  return p.filter((t) => !/cannot be a descendant of|cannot contain a nested|uncontrolled input to be controlled/.test(t));
}

async function openPlayground() {
  const page = state.page;
  const r = await page.goto(`${state.baseUrl}/`);
  assert.equal(r.status(), 200, 'GET / answers 200');
  await page.waitForFunction(() => window.playgroundReady === true);
  await page.getByRole('heading', { name: 'genui-worker playground' }).waitFor();
}

/** The example ids offered by the page's picker (every <option> with a value). */
async function exampleIds() {
  return state.page.$$eval('#example option', (opts) => opts.map((o) => o.value).filter(Boolean));
}

/** Presses Generate and waits until the page shows the new answer (not the last one). */
async function generateClick(page) {
  const before = Number(await page.getByTestId('output').getAttribute('data-run'));
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=output]').dataset.run) > n, before);
}

/** Picks an example (which presets its format unless `format` is given) and generates. */
async function pickAndGenerate(id, { format, generator = 'deterministic' } = {}) {
  const page = state.page;
  await page.selectOption('#example', id);
  if (format) await page.selectOption('#format', format);
  await page.selectOption('#generator', generator);
  await generateClick(page);
  const outcome = await Promise.race([
    page.getByTestId('pane-rjsf').waitFor().then(() => 'ok'),
    page.getByTestId('generate-error').waitFor().then(() => 'error'),
  ]);
  if (outcome === 'error') assert.fail(`Generate shows an error: ${await page.getByTestId('generate-error').innerText()}`);
  await page.getByTestId('jsonforms-form').waitFor();
  await page.locator('[data-testid=rjsf-form] form.rjsf').waitFor();
}

/** The request body as the page will send it (for the test's own look at the schema). */
async function requestBody() {
  const parsed = JSON.parse(await state.page.inputValue('#request-body'));
  return Array.isArray(parsed) ? { events: parsed } : parsed;
}

// ------------------------------------------------------------------ RJSF filler

const idOf = (path) => ['root', ...path].join('_');
const NATIVE = { date: '2026-12-24', 'date-time': '2026-12-24T10:30', time: '10:30' };

/**
 * Fills the required fields the form does not already hold, the way a person
 * does in RJSF's default theme (inputs found by RJSF's ids, root_<path>).
 */
async function fillRequired(page, root, schema, data, path = []) {
  const s = effective(schema, root).schema;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || (!type && s.properties)) {
    // required fields, and optional objects too: RJSF creates them, so their own required fields count
    for (const [key, sub] of Object.entries(s.properties ?? {})) {
      const subType = effective(sub, root).schema.type;
      if (!(s.required ?? []).includes(key) && subType !== 'object') continue;
      await fillRequired(page, root, sub, data?.[key], [...path, key]);
    }
    return;
  }
  if (type === 'array' && Array.isArray(data) && data.length >= (s.minItems ?? 1)) {
    // items already there (pre-filled): their required fields
    const items = effective(s.items ?? {}, root).schema;
    if (items.type === 'object') for (const [i, item] of data.entries()) await fillRequired(page, root, items, item, [...path, String(i)]);
    return;
  }
  if (data !== undefined && data !== null) return;
  const id = idOf(path);
  const form = page.locator('[data-testid=rjsf-form]');
  const label = path.at(-1) ?? 'value';
  const ch = choices(s, root);
  if (ch) return pickChoice(form, id);
  if (type === 'array') return fillArray(page, form, root, s, path, label);
  if (type === 'boolean') return form.locator(`#${id}`).check();
  const value = s.format && NATIVE[s.format] ? NATIVE[s.format] : String(sampleValue(s, label, root));
  await form.locator(`#${id}`).fill(value);
}

/** A select (first real option) or a radio group (first radio). */
async function pickChoice(form, id) {
  const select = form.locator(`select#${id}`);
  if (await select.count()) {
    const values = await select.locator('option').evaluateAll((os) => os.map((o) => o.value).filter((v) => v !== ''));
    await select.selectOption(values[0]);
    return;
  }
  await form.locator(`input[type=radio][id^="${id}-"], input[type=radio][name="${id}"]`).first().check();
}

async function fillArray(page, form, root, s, path, label) {
  const id = idOf(path);
  const items = effective(s.items ?? {}, root).schema;
  if (choices(items, root)) {
    // multi-select: checkboxes (root_x-0, ...) or a <select multiple>
    const boxes = form.locator(`input[type=checkbox][id^="${id}-"]`);
    if (await boxes.count()) return boxes.first().check();
    const values = await form.locator(`select#${id} option`).evaluateAll((os) => os.map((o) => o.value).filter((v) => v !== ''));
    return form.locator(`select#${id}`).selectOption([values[0]]);
  }
  const need = Math.max(1, s.minItems ?? 1);
  const fieldset = form.locator(`fieldset#${id}`);
  for (let i = 0; i < need; i++) {
    await fieldset.locator('button.array-item-add, button[title="Add"], .array-item-add button').first().click();
    const itemType = Array.isArray(items.type) ? items.type[0] : items.type;
    if (itemType === 'object') await fillRequired(page, root, items, undefined, [...path, String(i)]);
    else {
      const value = items.format && NATIVE[items.format] ? NATIVE[items.format] : String(sampleValue(items, label, root));
      await form.locator(`#${id}_${i}`).fill(value);
    }
  }
}

// ------------------------------------------------------------------ tests

describe('playground', () => {
  test('GET / serves the playground; the API still answers beside it', async () => {
    await openPlayground();
    const health = await fetch(`${state.baseUrl}/healthz`);
    assert.equal(health.status, 200);
    assert.equal((await health.json()).status, 'ok');
    const ids = await exampleIds();
    for (const protocol of ['agui-', 'agui-tools-', 'dgui-', 'lmui-']) {
      assert.ok(ids.some((id) => id.startsWith(protocol)), `the picker offers an example with the id prefix ${protocol}`);
    }
    // one column on a phone, without sideways scrolling
    await state.page.setViewportSize({ width: 400, height: 800 });
    assert.ok((await state.page.evaluate(() => document.documentElement.scrollWidth)) <= 400, 'no horizontal scroll at 400 px');
    await state.page.setViewportSize({ width: 1400, height: 900 });
    assert.deepEqual(takeProblems(), []);
  });

  test('every example: generate, both renderers render, fill the required fields, submit, tool message', async (t) => {
    await openPlayground();
    const all = await exampleIds();
    const ids = ONLY ? all.filter((id) => ONLY.includes(id)) : all;
    assert.ok(ids.length >= 20, `at least 20 examples (${ids.length})`);
    for (const id of ids) {
      await t.test(id, { timeout: 60_000 }, async () => {
        const page = state.page;
        takeProblems(); // a failed example before this one must not count here
        await pickAndGenerate(id);
        // both renderers show the form's inputs, and nothing failed
        const jf = page.getByTestId('pane-jsonforms');
        const rj = page.getByTestId('pane-rjsf');
        assert.ok((await jf.locator('input, textarea, [role=combobox], [role=radiogroup], button').count()) > 1, 'JSON Forms rendered inputs');
        assert.ok((await rj.locator('form.rjsf input, form.rjsf select, form.rjsf textarea').count()) > 0, 'RJSF rendered inputs');
        for (const pane of [jf, rj]) {
          const text = await pane.innerText();
          assert.doesNotMatch(text, /No applicable renderer|Unsupported field schema|could not render this spec/, 'no renderer failure on screen');
        }
        // the raw spec in the chosen format, and its provenance
        const format = await page.inputValue('#format');
        const raw = JSON.parse(await page.getByTestId('raw-spec').innerText());
        if (format === 'jsonforms') assert.ok(raw.jsonSchema && raw.uiSchema, 'raw spec is the JSON Forms answer');
        if (format === 'rjsf') assert.equal(raw.type, 'dgui_form', 'raw spec is the dgui_form');
        if (format === 'lmui') {
          assert.ok(Array.isArray(raw.ui_components), 'raw spec is the LMUI message');
          const list = await page.getByTestId('lmui-list').innerText();
          for (const c of raw.ui_components) assert.ok(list.includes(c.id), `the LMUI list shows component ${c.id}`);
        }
        assert.equal(await page.getByTestId('meta-generator').innerText().then((s) => s.split(' ')[0]), 'deterministic');
        assert.match(await page.getByTestId('cache-0').innerText(), /^(hit|miss)$/, 'x-genui-cache shown');
        assert.match(await page.getByTestId('meta-spechash').innerText(), /^[0-9a-f]{64}$/);

        // fill the required fields in RJSF and submit
        const body = await requestBody();
        const form = await postJson(`${state.baseUrl}/v1/generate?format=rjsf`, body);
        assert.equal(form.status, 200);
        await fillRequired(page, form.body.schema, form.body.schema, form.body.formData);
        await rj.locator('form.rjsf button[type=submit]').click();
        const outcome = await Promise.race([
          page.getByTestId('tool-message').waitFor().then(() => 'ok'),
          page.getByTestId('submission-error').waitFor().then(() => 'rejected'),
          rj.locator('.panel-danger.errors').waitFor().then(() => 'invalid'),
        ]);
        await page.screenshot({ path: join(SHOTS, `${id}.png`), fullPage: true });
        if (outcome === 'rejected') assert.fail(`the worker rejected the submission: ${await page.getByTestId('submission-error').innerText()}`);
        if (outcome === 'invalid') assert.fail(`RJSF blocked the submission: ${await rj.locator('.panel-danger.errors').innerText()}`);
        const message = JSON.parse(await page.getByTestId('tool-message-json').innerText());
        if (message.type === 'dgui_response') {
          // An example without a toolCallId: DGUI's response, no made-up id.
          assert.equal(message.toolCallId, undefined);
        } else {
          assert.equal(message.role, 'tool');
          assert.match(message.id, /^result_/);
          assert.equal(typeof message.toolCallId, 'string');
        }
        const submitted = submittedData(message);
        assert.deepEqual(validate(form.body.schema, submitted), [], 'the submitted data is valid for output');
        assert.match(await page.getByTestId('tool-message').innerText(), /(Tool message|dgui_response) from RJSF/);
        assert.deepEqual(takeProblems(), []);
      });
    }
  });

  test('a JSON Forms submission: fill by label, submit, tool message', async () => {
    const page = state.page;
    await openPlayground();
    await pickAndGenerate('agui-tools-bad-schema');
    const jf = page.getByTestId('pane-jsonforms');
    await jf.getByRole('textbox', { name: 'X' }).fill('first value');
    await jf.getByRole('textbox', { name: 'Y' }).fill('second value');
    await jf.getByRole('button', { name: 'Submit (JSON Forms)' }).click();
    await page.getByTestId('tool-message').waitFor();
    const message = JSON.parse(await page.getByTestId('tool-message-json').innerText());
    assert.deepEqual(submittedData(message), { x: 'first value', y: 'second value' });
    assert.match(await page.getByTestId('tool-message').innerText(), /(Tool message|dgui_response) from JSON Forms/);
    await page.screenshot({ path: join(SHOTS, 'jsonforms-submit.png'), fullPage: true });
    assert.deepEqual(takeProblems(), []);
  });

  test('the A2UI pane: the surface renders and its own submit button submits', async () => {
    const page = state.page;
    await openPlayground();
    await pickAndGenerate('agui-tools-bad-schema');
    const pane = page.getByTestId('pane-a2ui');
    await pane.locator('a2ui-surface').waitFor();
    for (const label of ['X', 'Y']) {
      await pane.locator('a2ui-basic-textfield').filter({ has: page.getByText(label, { exact: true }) }).locator('input').fill(`${label} value`);
    }
    await pane.locator('a2ui-basic-button button').filter({ hasText: 'Submit' }).click();
    await page.getByTestId('tool-message').waitFor();
    const message = JSON.parse(await page.getByTestId('tool-message-json').innerText());
    assert.deepEqual(submittedData(message), { x: 'X value', y: 'Y value' });
    assert.match(await page.getByTestId('tool-message').innerText(), /(Tool message|dgui_response) from A2UI/);
    await page.screenshot({ path: join(SHOTS, 'a2ui-submit.png'), fullPage: true });
    assert.deepEqual(takeProblems(), []);
  });

  test('the React pane: the module source with a copy button, the module rendered and submitted', async () => {
    const page = state.page;
    await openPlayground();
    await pickAndGenerate('agui-shipping-address');
    const pane = page.getByTestId('pane-react');
    await pane.getByRole('button', { name: 'Copy source' }).waitFor();
    const source = await pane.getByTestId('react-source').textContent();
    assert.match(source, /export const \w+Schema = z\./, 'the source exports the zod schema');
    assert.match(source, /export default function \w+\(\{ initialData, meta, respond \}: Props\)/, 'the default export has the generator\'s props');
    const form = pane.locator('form');
    await form.waitFor();
    assert.equal(await form.locator('[name="firstName"]').inputValue(), 'Ada', 'pre-filled from initialData');
    await form.locator('[name="street"]').fill('12 St James Square');
    await form.locator('[name="postalCode"]').fill('SW1Y 4LB');
    await form.locator('[name="country"]').selectOption('GB');
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('tool-message').waitFor();
    const message = JSON.parse(await page.getByTestId('tool-message-json').innerText());
    const data = submittedData(message);
    assert.equal(data.street, '12 St James Square');
    assert.equal(data.firstName, 'Ada');
    assert.match(await page.getByTestId('tool-message').innerText(), /(Tool message|dgui_response) from React/);
    await page.screenshot({ path: join(SHOTS, 'react-submit.png'), fullPage: true });
    assert.deepEqual(takeProblems(), []);
  });

  test('an invalid submission: 422 field errors next to the fields and raw', async () => {
    const page = state.page;
    await openPlayground();
    await pickAndGenerate('agui-shipping-address');
    const jf = page.getByTestId('pane-jsonforms');
    // street, postalCode and country are required and empty: submit anyway
    await jf.getByRole('button', { name: 'Submit (JSON Forms)' }).click();
    const box = page.getByTestId('submission-error');
    await box.waitFor();
    const text = await box.innerText();
    assert.match(text, /422/);
    assert.match(text, /submission_invalid/);
    for (const field of ['street', 'postalCode', 'country']) assert.match(text, new RegExp(`/${field}\\b`), `the error list names /${field}`);
    // the worker's message for /street, on the Street Address field itself
    await box.getByText('Raw response').click();
    const raw = JSON.parse(await box.locator('pre').innerText());
    const street = raw.payload.errors.find((e) => e.pointer === '/street');
    assert.ok(street, 'a field error for /street');
    const field = jf.locator('.MuiFormControl-root', { hasText: 'Street Address' }).first();
    await field.getByText(street.message, { exact: false }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'invalid-submission.png'), fullPage: true });
    // the browser logs the 422 itself; nothing else
    assert.deepEqual(takeProblems().filter((p) => !/Failed to load resource.*422/.test(p)), []);
  });

  test('a refused request shows the dgui_error', async () => {
    const page = state.page;
    await openPlayground();
    await page.fill('#request-body', JSON.stringify({ description: 'no output here' }));
    await generateClick(page);
    const box = page.getByTestId('generate-error');
    await box.waitFor();
    const text = await box.innerText();
    assert.match(text, /400/);
    assert.match(text, /invalid_request/);
    // the browser logs the 400 itself; nothing else
    assert.deepEqual(takeProblems().filter((p) => !/Failed to load resource.*400/.test(p)), []);
  });
});
