// Hosted forms (format=html, /v1/forms, /f/<token>) in Debian's Chromium:
//
// - axe-core (WCAG 2.0/2.1 A and AA, best practices) over every generate
//   fixture's hosted page, opened from its link (the real page with its CSP
//   header, pre-filled from the URL fragment by its own script), and over
//   the playground; 0 serious or critical violations on our pages;
// - a keyboard-only person fills and submits a hosted form (Tab, typing,
//   Space, Enter; no mouse);
// - a person's whole flow: open the link, submit a value the browser lets
//   through but the schema refuses, see the errors by the fields and in the
//   summary, fix, submit, see the confirmation; the local callback endpoint
//   checks the signature; a replay and an expired link are refused;
// - screenshots of the page, its error state and its confirmation on
//   desktop and mobile (screenshots/hosted/);
// - a format=html form in another origin's frame, posted to /v1/submit:
//   the errors by the fields, then the thank-you, whose tool message
//   reaches the framing page by postMessage from the worker's origin.
//
// The axe findings go to ../../bench-results/a11y.md when GENUI_A11Y_REPORT=1.
//
//   cd tests/browser && node --test hosted.mjs
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { BROWSER_DIR, BROWSER_WEBHOOK_SECRET, CHROMIUM_ARGS, REPO_ROOT, postJson, workerForTests } from './lib/servers.mjs';
import { submittedData } from './lib/schema.mjs';

const SECRET = BROWSER_WEBHOOK_SECRET;
const SHOTS = join(BROWSER_DIR, 'screenshots', 'hosted');
const FIXTURE_DIR = join(REPO_ROOT, 'crates', 'genui-core', 'tests', 'fixtures', 'generate');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

const state = { worker: null, baseUrl: null, browser: null, endpoint: null, received: [], findings: [] };

/** A callback endpoint: records each message whose signature checks out. */
function startEndpoint(port = 0) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = String(req.headers['x-genui-signature'] ?? '');
      const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')));
      const mac = crypto.createHmac('sha256', SECRET).update(`genui-callback.${parts.t}.`).update(body).digest('hex');
      const ok = parts.v1 && crypto.timingSafeEqual(Buffer.from(mac), Buffer.from(parts.v1.padEnd(mac.length, '0').slice(0, mac.length)));
      state.received.push({ ok: Boolean(ok), body: body.toString('utf8'), deliveryId: req.headers['x-genui-delivery-id'] });
      res.writeHead(ok ? 204 : 401).end();
    });
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  Object.assign(state, await workerForTests({ WEBHOOK_SECRET: SECRET, WEBHOOK_ALLOW_HTTP_CALLBACKS: 'true' }));
  state.endpoint = await startEndpoint();
  state.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, { timeout: 400_000 });

after(async () => {
  await state.browser?.close().catch(() => {});
  await new Promise((ok) => (state.endpoint ? state.endpoint.close(ok) : ok()));
  await state.worker?.stop().catch(() => {});
  if (process.env.GENUI_A11Y_REPORT === '1') writeReport();
});

const callbackUrl = () => `http://127.0.0.1:${state.endpoint.address().port}/hook`;

/** A link for a generate call's arguments; `{url, path}`. */
async function link(args, extra = {}) {
  const r = await postJson(`${state.baseUrl}/v1/forms`, { tool: 'generateUserInterface', callbackUrl: callbackUrl(), arguments: args, ...extra });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

/** A page in a context like a person's; the page's CSP is enforced. */
async function openPage(viewport = { width: 1280, height: 900 }) {
  const context = await state.browser.newContext({ viewport, timezoneId: 'UTC', locale: 'en-US', hasTouch: viewport.width < 500, isMobile: viewport.width < 500 });
  await context.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (route) => route.abort());
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  return { context, page, problems };
}

/** axe over the current page: its violations `{id, impact, help, nodes}`. */
async function axe(page) {
  // Evaluated through the DevTools protocol: the page's CSP does not apply.
  await page.evaluate(AXE);
  const result = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), AXE_TAGS);
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

const serious = (violations) => violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');

const fixtures = readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.json')).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(FIXTURE_DIR, f), 'utf8'))]).sort();

test('axe: every fixture form, hosted, has no serious or critical violation', { timeout: 900_000 }, async () => {
  const { context, page, problems } = await openPage();
  const failures = [];
  for (const [name, args] of fixtures) {
    const made = await link(args);
    await page.goto(made.url);
    // Pre-filled from the fragment by the page's own script (the CSP let it
    // run), after checking the fragment's hash.
    await page.locator('form.genui-form[data-ready="true"]').waitFor();
    const violations = await axe(page);
    state.findings.push({ side: 'worker (format=html)', page: name, violations });
    if (serious(violations).length) failures.push(`${name}: ${serious(violations).map((v) => `${v.id} (${v.impact}, ${v.nodes}): ${v.targets.join(', ')}`).join('; ')}`);
  }
  await context.close();
  assert.deepEqual(problems.filter((p) => /Content Security Policy|Refused/.test(p)), [], 'no CSP violation');
  assert.deepEqual(failures, []);
});

test('axe: the playground', { timeout: 120_000 }, async () => {
  const { context, page } = await openPage();
  await page.goto(`${state.baseUrl}/`);
  await page.waitForLoadState('networkidle');
  const violations = await axe(page);
  state.findings.push({ side: 'worker (playground)', page: 'playground', violations });
  await context.close();
  assert.deepEqual(serious(violations).map((v) => `${v.id}: ${v.targets.join(', ')}`), []);
});

const TRANSFER = {
  description: 'Transfer money',
  data: { to: 'Bob', amount: 10 },
  output: {
    type: 'object',
    title: 'Transfer money',
    required: ['to', 'amount'],
    properties: {
      to: { type: 'string', title: 'Recipient', description: 'Name of the account holder' },
      amount: { type: 'integer', title: 'Amount (EUR)', exclusiveMinimum: 0 },
      reference: { type: 'string', title: 'Reference', maxLength: 40 },
      urgent: { type: 'boolean', title: 'Send today' },
    },
  },
};

/** Waits until the endpoint has `n` messages (or the time is up). */
async function received(n, ms = 15_000) {
  const until = Date.now() + ms;
  while (state.received.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  return state.received;
}

test('a person: invalid, errors by the fields, fixed, delivered; replay and expiry refused', { timeout: 120_000 }, async () => {
  state.received.length = 0;
  const made = await link(TRANSFER, { toolCallId: 'call_browser', locale: 'en' });
  for (const [label, viewport] of [['mobile', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 900 }]]) {
    const { context, page, problems } = await openPage(viewport);
    await page.goto(made.url);
    await page.locator('form.genui-form[data-ready="true"]').waitFor().catch(async (e) => {
      const seen = await page.evaluate(async () => {
        const text = decodeURIComponent(location.hash.slice(6));
        const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
        return { hash: location.hash, text, hex: Array.from(new Uint8Array(d)).map((b) => b.toString(16).padStart(2, '0')).join(''), body: document.body.innerHTML.slice(0, 400) };
      });
      throw new Error(`${e.message}\npage problems: ${problems.join('\n')}\n${JSON.stringify(seen)}`);
    });
    assert.equal(await page.getByLabel('Recipient').inputValue(), 'Bob', 'pre-filled from the fragment');
    await page.screenshot({ path: join(SHOTS, `${label}-page.png`), fullPage: true });
    if (label === 'mobile') {
      await context.close();
      continue;
    }
    // 0 passes the browser (no native exclusive minimum), not the schema.
    await page.getByLabel('Amount (EUR)').fill('0');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#genui-summary').waitFor();
    assert.match(await page.locator('#genui-summary').innerText(), /Amount \(EUR\): Enter a value greater than 0\./);
    assert.equal(await page.getByLabel('Amount (EUR)').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Amount (EUR)').inputValue(), '0', 'the posted value is kept');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'genui-summary', 'focus moves to the summary');
    await page.screenshot({ path: join(SHOTS, 'desktop-errors.png'), fullPage: true });
    const errorViolations = await axe(page);
    state.findings.push({ side: 'worker (format=html)', page: 'hosted form, error state', violations: errorViolations });
    assert.deepEqual(serious(errorViolations), []);
    await page.getByLabel('Amount (EUR)').fill('10');
    await page.getByLabel('Reference').fill('Rent');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('[data-state="received"]').waitFor();
    await page.screenshot({ path: join(SHOTS, 'desktop-confirmation.png'), fullPage: true });
    const messages = await received(1);
    assert.equal(messages.length, 1);
    assert.ok(messages[0].ok, 'the callback signature checks out');
    const message = JSON.parse(messages[0].body);
    assert.equal(messages[0].deliveryId, message.id, 'the delivery id header is the message id');
    assert.equal(message.toolCallId, 'call_browser');
    assert.deepEqual(submittedData(message), { to: 'Bob', amount: 10, reference: 'Rent' });
    // A replay: back, and submit again.
    await page.goBack();
    await page.goBack();
    await page.waitForLoadState('load');
    const replay = await page.request.post(made.url.split('#')[0], { form: { '/to': 'Eve', '/amount': '99' } });
    assert.equal(replay.status(), 409);
    assert.deepEqual(problems.filter((p) => /Content Security Policy|Refused/.test(p)), []);
    await context.close();
  }
  // The mobile confirmation and error pages.
  const { context, page } = await openPage({ width: 390, height: 844 });
  const second = await link(TRANSFER, { locale: 'en' });
  await page.goto(second.url);
  await page.locator('form.genui-form[data-ready="true"]').waitFor();
  await page.getByLabel('Amount (EUR)').fill('0');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.locator('#genui-summary').waitFor();
  await page.screenshot({ path: join(SHOTS, 'mobile-errors.png'), fullPage: true });
  await page.getByLabel('Amount (EUR)').fill('3');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.locator('[data-state="received"]').waitFor();
  await page.screenshot({ path: join(SHOTS, 'mobile-confirmation.png'), fullPage: true });
  // An expired link, signed like the worker signs (purpose label first).
  // (The payload: the record's 16 random bytes, then expiresAt as 8 bytes big-endian.)
  const expiresAt = Math.floor(Date.now() / 1000) - 1;
  const bytes = Buffer.alloc(24);
  crypto.randomFillSync(bytes, 0, 16);
  bytes.writeBigUInt64BE(BigInt(expiresAt), 16);
  const payload = bytes.toString('base64url');
  const signature = crypto.createHmac('sha256', SECRET).update(`genui-form-token.${expiresAt}.${payload}`).digest('base64url');
  const expired = await page.goto(`${state.baseUrl}/f/${payload}.${signature}`);
  assert.equal(expired.status(), 410);
  const forged = await page.goto(`${state.baseUrl}/f/${payload}.${signature.slice(1)}A`);
  assert.equal(forged.status(), 404);
  await context.close();
});

/** A page of another origin that frames a form and keeps what its frame posts to it. */
async function startEmbedder() {
  const html = `<!doctype html><html><head><title>Embedder</title></head><body>
<iframe id="genui-form" title="Form" style="width:100%;height:760px;border:0"></iframe>
<script>
window.received = [];
const frame = document.getElementById('genui-form');
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  window.received.push({ origin: event.origin, data: event.data });
});
</script></body></html>`;
  const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

test('format=html in a frame: posted to /v1/submit, refused with the errors, fixed, and the tool message reaches the framing page', { timeout: 120_000 }, async () => {
  const served = await fetch(`${state.baseUrl}/v1/generate?format=html`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool: 'generateUserInterface', toolCallId: 'call_framed', locale: 'de', arguments: TRANSFER }),
  });
  assert.equal(served.status, 200);
  // The page as a frontend embeds it: in a srcdoc frame, posting to the worker.
  const html = (await served.text()).replace('action="/v1/submit"', `action="${state.baseUrl}/v1/submit"`);
  const embedder = await startEmbedder();
  const { context, page, problems } = await openPage();
  try {
    await page.goto(embedder.url);
    await page.evaluate((srcdoc) => { document.getElementById('genui-form').srcdoc = srcdoc; }, html);
    const frame = page.frameLocator('#genui-form');
    await frame.locator('form.genui-form[data-ready="true"]').waitFor();
    // 0 passes the browser (no native exclusive minimum), not the schema.
    await frame.getByLabel('Amount (EUR)').fill('0');
    await frame.getByLabel('Reference').fill('<b>Rent</b>');
    await frame.getByRole('button', { name: 'Absenden' }).click();
    await frame.locator('#genui-summary').waitFor();
    assert.match(await frame.locator('#genui-summary').innerText(), /Amount \(EUR\): Geben Sie einen Wert größer als 0 ein\./);
    assert.equal(await frame.getByLabel('Amount (EUR)').getAttribute('aria-invalid'), 'true');
    assert.equal(await frame.getByLabel('Reference').inputValue(), '<b>Rent</b>', 'the typed value is kept, as text');
    assert.deepEqual(await page.evaluate(() => window.received), [], 'nothing is posted before the answer is accepted');
    await frame.getByLabel('Amount (EUR)').fill('10');
    await frame.getByRole('button', { name: 'Absenden' }).click();
    await frame.locator('[data-state="submitted"]').waitFor();
    assert.equal(await frame.locator('[data-state="submitted"]').innerText(), 'Vielen Dank. Ihre Antwort ist eingegangen.');
    await page.waitForFunction(() => window.received.length > 0, null, { timeout: 8000 });
    const [got] = await page.evaluate(() => window.received);
    assert.equal(got.origin, new URL(state.baseUrl).origin, 'event.origin is where the form posted');
    assert.equal(got.data.type, 'genui:tool_message');
    assert.equal(got.data.message.role, 'tool');
    assert.equal(got.data.message.toolCallId, 'call_framed');
    const content = submittedData(got.data.message);
    assert.deepEqual({ to: content.to, amount: content.amount, reference: content.reference }, { to: 'Bob', amount: 10, reference: '<b>Rent</b>' });
    await page.screenshot({ path: join(SHOTS, 'framed-confirmation.png'), fullPage: true });
    assert.deepEqual(problems.filter((p) => /Content Security Policy|Refused/.test(p)), []);
  } finally {
    await context.close();
    await embedder.close();
  }
});

test('a link whose fragment was changed does not show the form', { timeout: 60_000 }, async () => {
  const made = await link(TRANSFER);
  const { context, page } = await openPage();
  await page.goto(made.url.replace(encodeURIComponent('"Bob"'), encodeURIComponent('"Mallory"')));
  await page.locator('[role="alert"]').waitFor();
  assert.equal(await page.locator('form.genui-form').count(), 0);
  await context.close();
});

test('an approval shows what is approved, from the checked fragment, and its button answers', { timeout: 60_000 }, async () => {
  state.received.length = 0;
  const made = await link({ description: 'A payment needs your approval', data: { action: 'Transfer 10 EUR to Bob <b>now</b>', importance: 'high' },
    output: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean', title: 'Approve?' } } } }, { locale: 'fr' });
  const { context, page } = await openPage();
  await page.goto(made.url);
  await page.locator('form.genui-form[data-ready="true"]').waitFor();
  assert.equal(await page.locator('.genui-prompt').innerText(), 'Approbation requise (high) : Transfer 10 EUR to Bob <b>now</b>', 'shown as text');
  await page.screenshot({ path: join(SHOTS, 'desktop-approval.png'), fullPage: true });
  await page.getByRole('button', { name: 'Approuver' }).click();
  await page.locator('[data-state="received"]').waitFor();
  const messages = await received(1);
  assert.deepEqual(submittedData(JSON.parse(messages[0].body)), { approved: true });
  await context.close();
});

test('keyboard only: Tab, typing, Space and Enter fill and submit a hosted form', { timeout: 60_000 }, async () => {
  state.received.length = 0;
  const made = await link({ description: 'Sign up', output: { type: 'object', required: ['name', 'plan'], properties: {
    name: { type: 'string', title: 'Name' },
    plan: { type: 'string', title: 'Plan', enum: ['free', 'pro'] },
    news: { type: 'boolean', title: 'Send me news' },
  } } }, { locale: 'de' });
  const { context, page } = await openPage();
  await page.goto(made.url);
  await page.locator('form.genui-form[data-ready="true"]').waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.name), '/name');
  await page.keyboard.type('Ada');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.name), '/plan');
  await page.keyboard.press('ArrowDown');
  const plan = await page.evaluate(() => document.activeElement?.value);
  assert.ok(['free', 'pro'].includes(plan), `the arrow key chose a plan: ${plan}`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.type), 'checkbox');
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Absenden');
  await page.keyboard.press('Enter');
  await page.locator('[data-state="received"]').waitFor();
  const messages = await received(1);
  assert.equal(messages.length, 1);
  assert.deepEqual(submittedData(JSON.parse(messages[0].body)), { name: 'Ada', plan, news: true });
  await context.close();
});

/** bench-results/a11y.md: every violation found, by page and side. */
function writeReport() {
  const lines = ['# Accessibility (axe-core in Chromium)', '',
    `axe-core ${JSON.parse(readFileSync(createRequire(import.meta.url).resolve('axe-core/package.json'), 'utf8')).version}, rules tagged ${AXE_TAGS.join(', ')}, by \`tests/browser/hosted.mjs\` (GENUI_A11Y_REPORT=1).`,
    'Side: **worker** = markup the worker writes itself (its fault); **renderer** = markup a renderer library writes from the worker\'s spec. The spec gives every control a label (title) and every section a title, so a missing name, a contrast or a nesting problem in a rendering is the renderer\'s (or its default theme\'s).', ''];
  // The renderings of run.mjs (JSON Forms, RJSF, A2UI), when it ran first.
  try {
    const report = JSON.parse(readFileSync(join(BROWSER_DIR, 'screenshots', 'report.json'), 'utf8'));
    for (const r of report.results ?? []) {
      if (r.axe) state.findings.push({ side: `renderer (${r.renderer})`, page: r.fixture, violations: r.axe });
    }
  } catch {
    lines.push('(No run.mjs report: the JSON Forms, RJSF and A2UI renderings were not checked in this run.)', '');
  }
  const pages = state.findings.length;
  const all = state.findings.flatMap((f) => f.violations.map((v) => ({ ...v, page: f.page, side: f.side })));
  const count = (impact) => all.filter((v) => v.impact === impact).length;
  lines.push(`${pages} pages checked; violations: critical ${count('critical')}, serious ${count('serious')}, moderate ${count('moderate')}, minor ${count('minor')}.`, '');
  const bySide = new Map();
  for (const f of state.findings) bySide.set(f.side, (bySide.get(f.side) ?? new Set()).add(f.page));
  const tally = new Map();
  for (const v of all) {
    const key = `${v.side}|${v.id}|${v.impact}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  lines.push('| side | pages checked | pages with a serious or critical violation |', '|---|---|---|');
  for (const [side, checked] of bySide) {
    const bad = new Set(all.filter((v) => v.side === side && (v.impact === 'serious' || v.impact === 'critical')).map((v) => v.page));
    lines.push(`| ${side} | ${checked.size} | ${bad.size} |`);
  }
  lines.push('', '| side | rule | impact | pages |', '|---|---|---|---|');
  for (const [key, n] of [...tally].sort()) lines.push(`| ${key.split('|').join(' | ')} | ${n} |`);
  lines.push('', '## Every violation', '');
  lines.push('| side | page | rule | impact | nodes | help |', '|---|---|---|---|---|---|');
  for (const v of all) lines.push(`| ${v.side} | ${v.page} | \`${v.id}\` | ${v.impact} | ${v.nodes} | ${v.help} |`);
  if (!all.length) lines.push('| - | - | none | - | - | - |');
  writeFileSync(join(REPO_ROOT, 'bench-results', 'a11y.md'), lines.join('\n') + '\n');
}
