// A streamed form in a real browser (issue 16): with a slow model, the
// form from the first `ui` event is on screen and typed into before the
// model has finished; the `patch` (the model's proven form) then updates
// it in place and what the person typed stays.
//
// How a patch meets typed input (docs/streaming.md): a patch changes the
// form (schema, layout, labels, provenance), never the person's data. The
// client applies it to the answer it holds and re-renders with the data it
// already has (here JSON Forms' current data); the answer's initialData only
// seeds a form that has none yet.
//
// Needs a worker with a model (GENUI_BASE_URL): run by the harness test
// e2e-stream, which starts it against the scripted model server.
//   cd tests/browser && node build.mjs && GENUI_BASE_URL=... node --test stream.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import jsonpatch from 'fast-json-patch';
import { CHROMIUM_ARGS, startStatic } from './lib/servers.mjs';

const BASE = process.env.GENUI_BASE_URL?.replace(/\/$/, '');
if (!BASE) throw new Error('GENUI_BASE_URL is unset: a worker with a model is needed (cargo test -p genui-harness --test e2e-stream -- --ignored)');
const AUTH = process.env.GENUI_API_KEY ? { authorization: `Bearer ${process.env.GENUI_API_KEY}` } : {};
const state = { static: null, browser: null, page: null, problems: [] };

before(async () => {
  state.static = await startStatic();
  state.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await state.browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.route(/.*/, (route) => (route.request().url().startsWith(state.static.url) ? route.continue() : route.abort()));
  state.page = await context.newPage();
  state.page.setDefaultTimeout(10_000);
  state.page.on('pageerror', (e) => state.problems.push(e.message));
  await state.page.goto(state.static.url);
  await state.page.waitForFunction(() => window.appReady === true);
});

after(async () => {
  await state.browser?.close().catch(() => {});
  await state.static?.close();
});

/** Yields {event, data, at} frames of an SSE response as they arrive. */
async function* frames(res, started) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.startsWith(':')) continue;
      const [eventLine, dataLine] = frame.split('\n');
      yield { event: eventLine.replace(/^event: /, ''), data: JSON.parse(dataLine.replace(/^data: /, '')), at: Date.now() - started };
    }
  }
}

test('the first ui renders and takes typing before the model finishes; the patch updates it in place, keeping what was typed', async () => {
  const page = state.page;
  const body = {
    description: `A sign-up form. [delay:2500] browser ${process.pid} ${Date.now()}`,
    data: { firstName: 'Ada' },
    output: { type: 'object', required: ['firstName', 'lastName'], properties: {
      firstName: { type: 'string', title: 'First Name' },
      lastName: { type: 'string', title: 'Last Name' },
      newsletter: { type: 'boolean', title: 'Newsletter' } } },
  };
  const started = Date.now();
  const res = await fetch(`${BASE}/v1/generate`, {
    method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...AUTH }, body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  let answer = null;
  let typedAt = null;
  const seen = [];
  for await (const { event, data, at } of frames(res, started)) {
    seen.push(event);
    if (event === 'ui') {
      answer = data;
      await page.evaluate((r) => window.renderJsonForms(r), answer);
      assert.equal(await page.locator('#form-title').textContent(), answer.meta.title);
      assert.equal(await page.getByRole('textbox', { name: /First Name/ }).inputValue(), 'Ada');
      await page.getByRole('textbox', { name: /Last Name/ }).fill('Lovelace');
      typedAt = Date.now() - started;
    } else if (event === 'patch') {
      assert.ok(typedAt !== null && typedAt < at, `typed at ${typedAt} ms, the model's patch came at ${at} ms`);
      answer = jsonpatch.applyPatch(answer, data, true).newDocument;
      await page.evaluate((r) => window.refineJsonForms(r), answer);
      assert.equal(await page.locator('#form-title').textContent(), answer.meta.title);
      assert.equal(answer.meta.generator, 'model');
    } else if (event === 'done') {
      assert.equal(data.generator, 'model');
      assert.ok(data.timings.firstUiMs < 1000 && data.timings.totalMs >= 2500, JSON.stringify(data.timings));
    }
  }
  assert.deepEqual(seen, ['ui', 'patch', 'done']);
  // The refinement kept the typed value and the prefilled one, on screen and in the data.
  assert.equal(await page.getByRole('textbox', { name: /Last Name/ }).inputValue(), 'Lovelace');
  assert.equal(await page.getByRole('textbox', { name: /First Name/ }).inputValue(), 'Ada');
  const data = await page.evaluate(() => window.currentData());
  assert.equal(data.lastName, 'Lovelace');
  assert.equal(data.firstName, 'Ada');
  assert.deepEqual(state.problems, []);
  await page.screenshot({ path: new URL('./screenshots/stream-refined.png', import.meta.url).pathname }).catch(() => {});
});
