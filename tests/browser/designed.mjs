// Three agent forms, designed, in every renderer a frontend uses: the
// development set's flight search, expense report and notification
// settings (crates/genui-core/tests/design/dev/), generated through the
// worker and rendered by JSON Forms, RJSF, A2UI's reference renderer, the
// worker's own HTML page and the React module, in Chromium. For each form
// and format:
//
// - sections: every section the form has (the JSON Forms answer's groups,
//   one plan for every format) shows its heading, above its first field;
// - rows: the related fields the generator pairs sit side by side (same
//   top within a few pixels, the second to the right of the first);
// - choices: an option is shown in words ("Premium economy", "British
//   Pound", "New York"), never as its code, and picking it submits the code
//   byte for byte, accepted by the worker's /v1/submit.
//
// With UPDATE_SCREENSHOTS=1 each rendering is saved to
// docs/designed-<form>-<format>.png (docs/formats.md shows them); without
// it nothing is written, so a test run leaves the tree clean.
//
//   cd tests/browser && npm run build && node --test designed.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { driveJsonForms } from './lib/jsonforms.mjs';
import { driveRjsf } from './lib/rjsf.mjs';
import { driveA2ui } from './lib/a2ui.mjs';
import { bundleReact, driveReact } from './lib/react.mjs';
import { sampleValue, sleep, submittedData } from './lib/schema.mjs';
import { BROWSER_DIR, REPO_ROOT, postJson, startAppPage, stopAppPage } from './lib/servers.mjs';

const DEV_SET = join(REPO_ROOT, 'crates', 'genui-core', 'tests', 'design', 'dev');
const DOCS = join(REPO_ROOT, 'docs');
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const FORMATS = ['jsonforms', 'rjsf', 'a2ui', 'html', 'react'];
// Wide enough for rows, small enough to keep the saved PNGs small.
const VIEWPORT = { width: 760, height: 900 };

/**
 * The forms: the development case, its short name in file names, the
 * fields the generator pairs in rows, a choice each (the field, the words
 * a person reads, the code that is submitted) and the data an agent
 * pre-fills (another choice than the one the test picks).
 */
const FORMS = [
  {
    name: 'flight',
    devCase: 'flight-search',
    rows: [['origin', 'destination'], ['departDate', 'returnDate']],
    choice: { field: 'cabinClass', label: 'Premium economy', value: 'premium_economy' },
    data: { origin: 'London Heathrow (LHR)', destination: 'Lisbon (LIS)', departDate: '2026-12-18', returnDate: '2026-12-27', adults: 2, children: 1, cabinClass: 'economy', nonstopOnly: true },
  },
  {
    name: 'expense',
    devCase: 'expense-report',
    rows: [['employee_name', 'employee_id'], ['period_start', 'period_end']],
    choice: { field: 'currency', label: 'British Pound', value: 'GBP' },
    data: {
      employee_name: 'Ada Lovelace', employee_id: 'E-1024', department: 'engineering', manager_email: 'grace@example.com',
      period_start: '2026-11-02', period_end: '2026-11-06', business_purpose: 'Customer workshop in Lisbon',
      expenses: [{ date: '2026-11-03', category: 'travel', description: 'Train to the airport', amount: 42.5 }], total_amount: 42.5, currency: 'EUR',
    },
  },
  {
    name: 'notifications',
    devCase: 'notification-settings',
    rows: [['quiet_hours_start', 'quiet_hours_end']],
    choice: { field: 'timezone', label: 'New York', value: 'America/New_York' },
    data: { email_enabled: true, sms_enabled: false, push_enabled: true, digest_frequency: 'daily', quiet_hours_start: '22:00', quiet_hours_end: '07:00', timezone: 'Europe/London' },
  },
];

const state = {};

before(async () => {
  Object.assign(state, await startAppPage(VIEWPORT));
}, { timeout: 400_000 });

after(async () => {
  await stopAppPage(state);
});

/** The development case's request, with the form's pre-filled data. */
function request(form) {
  const body = JSON.parse(readFileSync(join(DEV_SET, `${form.devCase}.json`), 'utf8')).request;
  return { ...body, data: { ...body.data, ...form.data } };
}

/** Every Group label and every Control label (by top-level field) of a JSON Forms uiSchema. */
function planOf(uiSchema) {
  const sections = [];
  const labels = {};
  const walk = (node, section) => {
    if (node.type === 'Group') {
      section = { label: node.label, fields: [] };
      sections.push(section);
    }
    if (node.type === 'Control') {
      const name = node.scope.replace('#/properties/', '').split('/')[0];
      labels[name] ??= node.label;
      if (section && !section.fields.includes(name)) section.fields.push(name);
    }
    (node.elements ?? []).forEach((e) => walk(e, section));
  };
  walk(uiSchema, null);
  return { sections, labels };
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The input (or group of inputs) of a top-level field, as each format marks it. */
function inputOf(page, format, name, label) {
  switch (format) {
    case 'rjsf':
      return page.locator(`#root_${name}`);
    case 'html':
      return page.locator(`[name="/${name}"]`);
    case 'react':
      return page.locator(`form [name="${name}"]`);
    case 'a2ui':
      // @a2ui/lit's labels are not associated with their inputs.
      return page
        .locator('a2ui-basic-textfield, a2ui-datetimeinput')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('input, textarea');
    default:
      return page.getByLabel(new RegExp(`^${escape(label)}\\s*\\*?$`));
  }
}

async function boxOf(page, format, name, label) {
  const input = inputOf(page, format, name, label).first();
  assert.ok(await input.count(), `${format}: the input of "${label}" (${name}) is on screen`);
  return input.boundingBox();
}

/** Renders the answer of `format` on the page; returns what the fill needs. */
async function render(format, form, body) {
  const query = format === 'jsonforms' ? '' : `?format=${format}`;
  if (format === 'html') {
    const r = await fetch(`${state.baseUrl}/v1/generate${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(r.status, 200, `POST /v1/generate${query}`);
    // The page as a frontend serves it, posting to the worker.
    const html = (await r.text()).replace('action="/v1/submit"', `action="${state.baseUrl}/v1/submit"`);
    const url = `${state.static.url}designed/${form.name}.html`;
    await state.page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
    await state.page.goto(url);
    await state.page.locator('form.genui-form[data-ready="true"]').waitFor();
    return { html };
  }
  const r = await postJson(`${state.baseUrl}/v1/generate${query}`, body);
  assert.equal(r.status, 200, `POST /v1/generate${query}: ${JSON.stringify(r.body).slice(0, 300)}`);
  if (format === 'react') {
    const path = await bundleReact(r.body, `designed-${form.name}`, join(BROWSER_DIR, 'dist'));
    await state.page.goto(`${state.static.url}${path}`);
    await state.page.waitForFunction(() => window.formReady === true);
    await state.page.evaluate((d) => window.mountForm(d), r.body.initialData);
    await state.page.locator('form').first().waitFor();
    return r.body;
  }
  if (!(await state.page.evaluate(() => window.appReady === true).catch(() => false))) {
    await state.page.goto(state.static.url);
    await state.page.waitForFunction(() => window.appReady === true);
  }
  const call = { jsonforms: 'renderJsonForms', rjsf: 'renderRjsf', a2ui: 'renderA2ui' }[format];
  await state.page.evaluate(([fn, answer]) => window[fn](answer), [call, r.body]);
  await sleep(300);
  return r.body;
}

/** Picks the option shown as `label` in the field labelled `fieldLabel`. */
async function pickOption(page, format, fieldLabel, label) {
  if (format === 'a2ui') {
    await page.locator('a2ui-choicepicker label.a2ui-option-label').filter({ hasText: new RegExp(`^\\s*${escape(label)}\\s*$`) }).locator('input').first().check();
    return;
  }
  const radio = page.getByRole('radio', { name: label, exact: true });
  if (await radio.count()) {
    await radio.first().check();
    return;
  }
  const select = page.locator('select').filter({ has: page.locator('option', { hasText: new RegExp(`^${escape(label)}$`) }) });
  if (await select.count()) {
    await select.first().selectOption({ label });
    return;
  }
  // JSON Forms' autocomplete.
  const box = page.getByRole('combobox', { name: new RegExp(`^${escape(fieldLabel)}\\s*\\*?$`) });
  await box.click();
  await box.fill(label);
  await page.getByRole('option', { name: label, exact: true }).first().click();
}

/** Fills the HTML page's required inputs the way a person would. */
async function fillHtml(page, output) {
  const inputs = page.locator('form.genui-form :is(input, select, textarea):is([required], [aria-required="true"])');
  for (let i = 0; i < (await inputs.count()); i++) {
    const input = inputs.nth(i);
    if (!(await input.isVisible())) continue;
    const [tag, type, name] = await input.evaluate((el) => [el.tagName.toLowerCase(), el.type, el.name]);
    if (type === 'radio') {
      const group = page.locator(`form.genui-form input[type=radio][name="${name}"]`);
      if (!(await group.evaluateAll((els) => els.some((e) => e.checked)))) await group.first().check();
    } else if (type === 'checkbox') {
      await input.check();
    } else if (tag === 'select') {
      if (!(await input.inputValue())) await input.selectOption({ index: 1 });
    } else if (!(await input.inputValue())) {
      const schema = name.split('/').slice(1).reduce((s, k) => (/^\d+$/.test(k) ? s?.items : s?.properties?.[k]), output);
      await input.fill(String(sampleValue(schema ?? { type: 'string' }, name, output)));
    }
  }
}

/**
 * Fills the whole form with the format's driver (or, for the HTML page,
 * every required input), picks the choice by its words, submits, and
 * returns the tool message /v1/submit answered.
 */
async function fillPickAndSubmit(format, answer, output, fieldLabel, choice) {
  const page = state.page;
  const pick = () => pickOption(page, format, fieldLabel, choice.label);
  if (format === 'jsonforms') {
    const drive = await driveJsonForms(page, answer, { fixture: 'designed' });
    assert.deepEqual(drive.failures, [], 'JSON Forms fills');
    await pick();
    await sleep(200);
    const data = await page.evaluate(() => window.currentData());
    return submitted(await postJson(`${state.baseUrl}/v1/submit`, { output, data }), data);
  }
  if (format === 'rjsf') {
    const drive = await driveRjsf(page, answer);
    assert.deepEqual(drive.failures, [], 'RJSF fills');
    await pick();
    await page.evaluate(() => { window.submitted = null; });
    await page.locator('.rjsf button[type=submit]').click();
    const data = await page.waitForFunction(() => window.submitted).then((h) => h.jsonValue());
    return submitted(await postJson(`${state.baseUrl}/v1/submit`, { output, data }), data);
  }
  if (format === 'a2ui') {
    const drive = await driveA2ui(page, answer, output);
    assert.deepEqual(drive.failures, [], 'A2UI fills');
    await pick();
    await page.evaluate(() => window.a2uiActions.splice(0));
    await page.locator('a2ui-basic-button').filter({ hasText: 'Submit' }).locator('button').first().click();
    const message = await page.waitForFunction(() => window.a2uiActions.find((m) => m.action.name === 'genui.submit')).then((h) => h.jsonValue());
    return submitted(await postJson(`${state.baseUrl}/v1/submit`, message));
  }
  if (format === 'react') {
    const drive = await driveReact(page, output);
    assert.deepEqual(drive.failures, [], 'the React module fills');
    await pick();
    const before = await page.evaluate(() => window.responded.length);
    await page.locator('form button[type=submit]').last().click();
    await page.waitForFunction((n) => window.responded.length > n, before);
    const data = await page.evaluate(() => window.responded.at(-1));
    const r = await postJson(`${state.baseUrl}/v1/submit`, { specHash: answer.meta.specHash, toolCallId: 'call_designed', data });
    return submitted(r, data);
  }
  await fillHtml(page, output);
  await pick();
  // A native post: the worker answers with a page for the person, which
  // carries the tool message for the page that embeds the form.
  const answered = page.waitForResponse((r) => r.url().startsWith(`${state.baseUrl}/v1/submit`) && r.request().method() === 'POST');
  await page.locator('form.genui-form [type=submit]').first().click();
  const response = await answered;
  assert.equal(response.status(), 200, `POST /v1/submit: ${(await page.locator('body').innerText()).slice(0, 600)}`);
  const holder = page.locator('#genui-tool-message');
  await holder.waitFor({ state: 'attached' });
  return submitted({ status: response.status(), body: JSON.parse(await holder.getAttribute('data-message')) });
}

/** The tool message's content, once /v1/submit accepted it (and, where given, carried the data as sent). */
function submitted(r, data) {
  assert.equal(r.status, 200, `POST /v1/submit: ${JSON.stringify(r.body).slice(0, 600)}`);
  assert.ok(r.body.role === 'tool' || r.body.type === 'dgui_response', 'a tool message, or a dgui_response without a toolCallId');
  const content = submittedData(r.body);
  if (data !== undefined) assert.deepEqual(content, JSON.parse(JSON.stringify(data)), 'the tool message carries the data as sent');
  return { content, raw: r.body.content ?? JSON.stringify(r.body.data) };
}

async function screenshot(form, format) {
  if (!UPDATE) return;
  const page = state.page;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.screenshot({
    path: join(DOCS, `designed-${form.name}-${format}.png`),
    clip: { x: 0, y: 0, width: VIEWPORT.width, height: Math.min(height, 1300) },
    fullPage: true,
  });
}

for (const form of FORMS) {
  describe(`designed: ${form.devCase}`, () => {
    let plan;
    before(async () => {
      const r = await postJson(`${state.baseUrl}/v1/generate`, request(form));
      assert.equal(r.status, 200);
      plan = planOf(r.body.uiSchema);
    });

    test('the plan has sections, its rows and the choice', () => {
      assert.ok(plan.sections.length >= 2, `sections: ${JSON.stringify(plan.sections)}`);
      for (const [a, b] of form.rows) assert.ok(plan.labels[a] && plan.labels[b], `${a} and ${b} are fields`);
      assert.ok(plan.labels[form.choice.field], `${form.choice.field} is a field`);
    });

    for (const format of FORMATS) {
      test(format, { timeout: 120_000 }, async () => {
        const page = state.page;
        await page.setViewportSize(VIEWPORT);
        const body = request(form);
        const output = body.output;
        const answer = await render(format, form, body);

        // Sections: each heading shows, above the first field of its section.
        for (const section of plan.sections) {
          const heading = page.getByText(section.label, { exact: true }).first();
          assert.ok(await heading.isVisible(), `${format}: the section heading "${section.label}" is on screen`);
          // (Where the format marks the first field's input in a way found here.)
          const first = section.fields[0];
          const field = await boxOf(page, format, first, plan.labels[first]).catch(() => null);
          if (field) {
            const head = await heading.boundingBox();
            assert.ok(head.y < field.y, `${format}: "${section.label}" heads its fields (${head.y} < ${field.y})`);
          }
        }

        // Rows: same top within a few pixels, the second right of the first.
        for (const [a, b] of form.rows) {
          const boxA = await boxOf(page, format, a, plan.labels[a]);
          const boxB = await boxOf(page, format, b, plan.labels[b]);
          assert.ok(Math.abs(boxA.y - boxB.y) <= 4, `${format}: ${a} and ${b} share a row (tops ${boxA.y}, ${boxB.y})`);
          assert.ok(boxB.x >= boxA.x + boxA.width - 4, `${format}: ${b} sits right of ${a} (${JSON.stringify(boxA)} ${JSON.stringify(boxB)})`);
        }

        // Choices in words: the option's words are on screen, its code is not.
        const { field, label, value } = form.choice;
        const fieldLabel = plan.labels[field];
        if (format === 'jsonforms' && !(await page.getByRole('radio', { name: label, exact: true }).count())) {
          // An autocomplete shows its options once opened.
          const box = page.getByRole('combobox', { name: new RegExp(`^${escape(fieldLabel)}\\s*\\*?$`) });
          await box.click();
          assert.ok(await page.getByRole('option', { name: label, exact: true }).first().isVisible(), `${format}: the option "${label}" is listed`);
          await page.keyboard.press('Escape');
        } else if (format === 'a2ui' || (await page.getByRole('radio', { name: label, exact: true }).count())) {
          assert.ok(await page.getByText(label, { exact: true }).first().isVisible(), `${format}: the option "${label}" is on screen`);
        } else {
          const texts = await page.locator('select option').allTextContents();
          assert.ok(texts.includes(label), `${format}: an <option> reads "${label}": ${JSON.stringify(texts)}`);
          assert.ok(!texts.includes(value), `${format}: no <option> reads the code "${value}"`);
        }
        assert.equal(await page.getByText(value, { exact: true }).count(), 0, `${format}: the code "${value}" is not shown as text`);
        await screenshot(form, format);

        // Picked by its words, submitted as its code, accepted.
        const { content, raw } = await fillPickAndSubmit(format, answer, output, fieldLabel, form.choice);
        assert.equal(content[field], value, `${format}: ${field} is submitted as the code`);
        assert.ok(raw.includes(`${JSON.stringify(field)}:${JSON.stringify(value)}`), `${format}: the code byte for byte in the tool message: ${raw}`);
      });
    }
  });
}
