// Issue 20 in real renderers: the operator's own components. The page
// registers the example catalog's components (catalogs/example.json) the
// way an app does (src/catalog.jsx): a JSON Forms custom renderer chosen by
// a tester on `options.genui`, RJSF custom widgets by `ui:widget` name, and
// an A2UI custom catalog in @a2ui/lit's MessageProcessor. The worker
// generates a form naming the catalog (a 0-10 star rating asked for by
// `x-genui-widget`, a colour picker asked for by `format: color`); a person
// picks 7 stars and a red, types a name, and /v1/submit accepts the data.
// A rating on a field up to 11 is refused and shown with the built-in
// widget; an unknown catalog is a 400 at /catalog.
//
//   cd tests/browser && npm run build && node --test catalog.mjs
//
// Same environment as run.mjs (GENUI_BASE_URL, CHROMIUM_PATH, ...).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sleep, submittedData } from './lib/schema.mjs';
import { BROWSER_DIR, postJson, startAppPage, stopAppPage } from './lib/servers.mjs';

const SHOTS = join(BROWSER_DIR, 'screenshots');
const CATALOG_ID = 'https://genui-worker.dev/catalogs/example/a2ui-catalog.json';
const output = (max = 10) => ({
  type: 'object',
  required: ['name', 'stars', 'shade'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1 },
    stars: { type: 'integer', title: 'Stars', minimum: 0, maximum: max, 'x-genui-widget': 'starRating' },
    shade: { type: 'string', title: 'Shade', format: 'color' },
  },
});
const BODY = { description: 'Rate the paint', output: output(), catalog: 'example' };
const EXPECTED = { name: 'Ada', stars: 7, shade: '#ff0000' };

const state = {};

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  Object.assign(state, await startAppPage({ height: 700 }));
}, { timeout: 400_000 });

after(() => stopAppPage(state));

/** /v1/submit accepts what the form produced. */
async function accepted(specHash, data) {
  assert.deepEqual(data, EXPECTED);
  const r = await postJson(`${state.baseUrl}/v1/submit`, { specHash, data });
  assert.equal(r.status, 200, `POST /v1/submit: ${JSON.stringify(r.body).slice(0, 600)}`);
  assert.deepEqual(submittedData(r.body), EXPECTED);
}

/** A person: 7 stars, a red, a name (`name`: the renderer's text input). */
async function fill(page, name) {
  await page.getByRole('button', { name: '7 stars' }).click();
  await page.locator('input[type=color]').fill('#ff0000');
  await name.fill('Ada');
  await sleep(200);
  assert.equal(await page.getByRole('button', { name: '7 stars' }).getAttribute('aria-pressed'), 'true');
}

describe('operator catalog components in the renderers', () => {
  test('JSON Forms: custom renderers chosen by their testers', { timeout: 120_000 }, async () => {
    const r = await postJson(`${state.baseUrl}/v1/generate`, BODY);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.equal(r.body.meta.warnings, undefined, JSON.stringify(r.body.meta));
    const page = state.page;
    await page.evaluate((spec) => window.renderJsonForms(spec), r.body);
    assert.equal(await page.locator('fieldset.genui-star-rating').count(), 1, 'the star rating renderer won its tester');
    await fill(page, page.getByLabel('Name', { exact: false }).first());
    // Material's text input hands its value over after a debounce.
    await page.waitForFunction(() => window.currentData()?.name === 'Ada');
    await page.screenshot({ path: join(SHOTS, 'catalog-jsonforms.png'), fullPage: true });
    await accepted(r.body.meta.specHash, await page.evaluate(() => window.currentData()));
  });

  test('RJSF: custom widgets by ui:widget name', { timeout: 120_000 }, async () => {
    const r = await postJson(`${state.baseUrl}/v1/generate?format=rjsf`, BODY);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.equal(r.body.uiSchema.stars['ui:widget'], 'starRating');
    const page = state.page;
    await page.evaluate((form) => window.renderRjsf(form), r.body);
    assert.equal(await page.locator('fieldset.genui-star-rating').count(), 1);
    await fill(page, page.locator('#root_name'));
    await page.screenshot({ path: join(SHOTS, 'catalog-rjsf.png'), fullPage: true });
    await page.locator('button[type=submit]').click();
    await page.waitForFunction(() => window.submitted !== null);
    await accepted(r.body.metadata.specHash, await page.evaluate(() => window.submitted));
  });

  test('A2UI: the operator catalog in @a2ui/lit', { timeout: 120_000 }, async () => {
    const r = await postJson(`${state.baseUrl}/v1/generate?format=a2ui`, BODY);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.equal(r.body.messages[0].createSurface.catalogId, CATALOG_ID);
    const page = state.page;
    await page.evaluate((w) => window.renderA2ui(w), r.body);
    assert.equal(await page.locator('genui-star-rating').count(), 1, 'StarRating rendered by the app catalog');
    const name = page.locator('a2ui-basic-textfield').filter({ has: page.getByText('Name', { exact: true }) }).locator('input').first();
    await fill(page, name);
    await page.screenshot({ path: join(SHOTS, 'catalog-a2ui.png'), fullPage: true });
    await page.locator('a2ui-basic-button').filter({ hasText: 'Submit' }).locator('button').first().click();
    const message = await page.waitForFunction(() => window.a2uiActions.find((m) => m.action.name === 'genui.submit')).then((h) => h.jsonValue());
    const s = await postJson(`${state.baseUrl}/v1/submit`, message);
    assert.equal(s.status, 200, `POST /v1/submit: ${JSON.stringify(s.body).slice(0, 600)}`);
    assert.deepEqual(submittedData(s.body), EXPECTED);
  });

  test('a rating on a field up to 11 is refused: the built-in widget shows it', { timeout: 60_000 }, async () => {
    const r = await postJson(`${state.baseUrl}/v1/generate`, { ...BODY, output: output(11) });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.deepEqual(r.body.meta.warnings.map((w) => `${w.code} ${w.pointer}`), ['component_refused /output/properties/stars']);
    await state.page.evaluate((spec) => window.renderJsonForms(spec), r.body);
    assert.equal(await state.page.locator('fieldset.genui-star-rating').count(), 0);
    assert.equal(await state.page.locator('input[type=color]').count(), 1, 'the colour picker still fits');
  });

  test('an unknown or inline catalog is a 400 at /catalog', async () => {
    for (const catalog of ['nope', { name: 'mine', components: [] }]) {
      const r = await postJson(`${state.baseUrl}/v1/generate`, { ...BODY, catalog });
      assert.equal(r.status, 400);
      assert.equal(r.body.payload.pointer, '/catalog');
    }
  });

  test('no uncaught page errors', () => {
    assert.deepEqual(state.errors, []);
  });
});
