// Browser test layer of genui-worker: generate a form with the worker,
// render it with JSON Forms (material renderers), with RJSF and with A2UI's
// reference renderer (@a2ui/lit, v0.9) in Debian's Chromium, fill it like a
// person, and submit it back to the worker.
//
//   cd tests/browser && npm install && npm run build && node --test run.mjs
//
// Environment: GENUI_BASE_URL (use a running worker instead of starting
// `wrangler dev`), GENUI_BROWSER_FIXTURES (comma-separated fixture names, or
// "all"), GENUI_BROWSER_RENDERERS ("jsonforms,rjsf,a2ui"), GENUI_BROWSER_STRICT=1
// (known issues fail instead of being reported as TODO),
// GENUI_BROWSER_STARTUP_SECS (default 300), CHROMIUM_PATH (default
// /usr/bin/chromium).
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { driveJsonForms } from './lib/jsonforms.mjs';
import { driveRjsf } from './lib/rjsf.mjs';
import { driveA2ui } from './lib/a2ui.mjs';
import { driveCopilotKit } from './lib/copilotkit.mjs';
import { bundleReact, driveReact } from './lib/react.mjs';
import { checkPlacement, choose, pick, visible } from './lib/layout.mjs';
import { driveMcpApp } from './lib/mcp-app.mjs';
import { a2uiClientErrors, a2uiWrapperErrors, validate, submittedData } from './lib/schema.mjs';
import { BROWSER_DIR, CHROMIUM_ARGS, REPO_ROOT, postJson, startStatic, workerForTests } from './lib/servers.mjs';

const FIXTURE_DIR = join(REPO_ROOT, 'crates', 'genui-core', 'tests', 'fixtures', 'generate');
const SHOTS = join(BROWSER_DIR, 'screenshots');

// The default set: seeds, nested objects, arrays of scalars and of objects,
// nested arrays, small and large enums, titled enums, multi-select,
// booleans, numbers and sliders, every string format, long text, oneOf,
// anyOf, nullable anyOf and type arrays, recursive and mutually recursive
// $ref, draft-07, const/readOnly, approvals, 30-level nesting.
const DEFAULT_FIXTURES = [
  'seed-address',
  'seed-flight',
  'company-nested-3-levels',
  'article-tags-and-scores',
  'invoice-line-items',
  'team-roster-nested-arrays',
  'shipping-speed-small-enum',
  'timezone-large-enum',
  'tshirt-size-oneof-const',
  'used-car-search',
  'notification-settings',
  'audio-settings-number-ranges',
  'integer-constraints',
  'event-registration-formats',
  'meeting-scheduler',
  'job-application',
  'payment-method-oneof',
  'contact-preference-anyof',
  'category-tree-recursive',
  'person-employer-mutual-recursion',
  'pydantic-v2-user',
  'zod-signup',
  'draft07-order-definitions',
  'approval-confirmation',
  'confirm-action',
  'nullable-type-arrays',
  'humanized-labels-const-readonly',
  'feature-flags-additional-properties',
  'deep-nesting-30-levels',
  // layout: rows, mobile, conditionals, long-form steps
  'name-address-rows',
  'seed-address-mobile',
  'if-then-else-country',
  'dependent-required-billing',
  'dependent-schemas-referral',
  'draft07-dependencies',
  'contact-method-discriminated',
  'long-application-form',
  // hostile text: markup and javascript: links in the description and choice titles
  'hostile-text-description-and-choices',
];

const RENDERERS = (process.env.GENUI_BROWSER_RENDERERS ?? 'jsonforms,rjsf,a2ui,copilotkit,react').split(',').map((s) => s.trim()).filter(Boolean);
const FIXTURES = (() => {
  const env = process.env.GENUI_BROWSER_FIXTURES;
  if (!env) return DEFAULT_FIXTURES;
  if (env === 'all') return readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
  return env.split(',').map((s) => s.trim()).filter(Boolean);
})();
const STRICT = process.env.GENUI_BROWSER_STRICT === '1';

// Known problems, each a bug report with its evidence: the step still runs,
// and is reported as TODO (not a failure) unless GENUI_BROWSER_STRICT=1.
// Key: "<renderer>/<fixture>/<step>".
const KNOWN_ISSUES = JSON.parse(readFileSync(join(BROWSER_DIR, 'known-issues.json'), 'utf8'));

// Console output that comes from the renderer libraries themselves, whatever
// the spec: reported in the summary, not counted as render problems.
const UPSTREAM_NOISE = [
  {
    // @jsonforms/material-renderers 3.8 ExpandPanelRenderer puts its
    // delete/move IconButtons inside MUI's AccordionSummary <button>.
    test: (t) => /cannot be a descendant of/.test(t) && /<button>/.test(t) && /ExpandPanelRenderer/.test(t),
    why: 'JSON Forms ExpandPanelRenderer nests <button> in <button> (array items)',
  },
  {
    // @rjsf/core 6.11 CheckboxWidget renders checked={null} for a null boolean
    // (type ["boolean","null"] pre-filled with null) and React warns when it is ticked.
    test: (t) => /changing an uncontrolled input to be controlled/.test(t),
    why: 'RJSF/React: an input pre-filled with null becomes controlled when filled (uncontrolled -> controlled warning)',
  },
  {
    // React's companion message of the same nesting.
    test: (t) => /cannot contain a nested/.test(t) && /button <button>/.test(t),
    why: 'JSON Forms ExpandPanelRenderer nests <button> in <button> (array items)',
  },
  {
    // @a2ui/lit 0.11 Text warns once per Text when the app provides no
    // markdown renderer (@a2ui/markdown-it); the worker's texts are plain.
    test: (t) => /\[MarkdownDirective\] can't render markdown/.test(t),
    why: '@a2ui/lit: Text without a markdown renderer configured (plain text shown as is)',
  },
];

const state = {
  worker: null,
  baseUrl: null,
  static: null,
  browser: null,
  page: null,
  submitAvailable: false,
  submitProbe: null,
  rjsfAvailable: false,
  rjsfProbe: null,
  report: { startedAt: new Date().toISOString(), results: [], upstream: [], capabilities: {} },
  // Dialogs opened since the last look: a script from the spec's text ran.
  dialogs: [],
};

const t0 = Date.now();

// axe-core over the rendering (inside #root: the renderer's markup from the
// worker's spec, not this test app's page); hosted.mjs reports the findings
// in bench-results/a11y.md.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function axeRoot(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run({ include: ['#root'] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }));
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  Object.assign(state, await workerForTests());
  const health = await fetch(`${state.baseUrl}/healthz`);
  assert.equal(health.status, 200, 'GET /healthz');
  state.report.worker = await health.json();

  // What the worker offers today.
  const seed = JSON.parse(readFileSync(join(FIXTURE_DIR, 'seed-address.json'), 'utf8'));
  const sub = await postJson(`${state.baseUrl}/v1/submit`, { output: seed.output, data: { firstName: 'A', lastName: 'B', street: 'C', city: 'D', postalCode: 'E', country: 'GB' } });
  state.submitAvailable = sub.status !== 404 && sub.status !== 405;
  state.submitProbe = `POST /v1/submit -> ${sub.status}`;
  const rj = await postJson(`${state.baseUrl}/v1/generate?format=rjsf`, seed);
  state.rjsfAvailable = rj.status === 200 && rj.body?.type === 'dgui_form';
  state.rjsfProbe = `POST /v1/generate?format=rjsf -> ${rj.status}${rj.body?.type ? ` type ${rj.body.type}` : ' (no dgui_form)'}`;
  state.report.capabilities = { submit: state.submitProbe, rjsf: state.rjsfProbe };
  console.log(`${state.submitProbe}; ${state.rjsfProbe}`);

  state.static = await startStatic();
  state.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  await openPage();
}, { timeout: 400_000 });

/** A fresh context and page on the test app (also after a renderer crash). */
async function openPage() {
  if (state.context) await state.context.close().catch(() => {});
  state.context = await state.browser.newContext({ viewport: { width: 1000, height: 800 }, timezoneId: 'UTC', locale: 'en-US' });
  // Nothing beyond 127.0.0.1.
  await state.context.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (route) => route.abort());
  state.page = await state.context.newPage();
  state.page.setDefaultTimeout(5000);
  // alert()/confirm()/prompt(): only a script smuggled in through text
  // (a description, a choice title) opens one; each is a render problem.
  state.page.on('dialog', (dialog) => {
    state.dialogs.push(`script-ran: ${dialog.type()} ${JSON.stringify(dialog.message())}`);
    dialog.dismiss().catch(() => {});
  });
  await state.page.goto(state.static.url);
  await state.page.waitForFunction(() => window.appReady === true);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether the page still answers (a render loop or a crash make it not). */
async function pageAlive() {
  const ok = await Promise.race([state.page.evaluate(() => window.appReady === true).catch(() => false), sleep(3000).then(() => false)]);
  return ok === true;
}

const RENDER_LIMIT_MS = 15_000;

after(async () => {
  await state.browser?.close().catch(() => {});
  await state.static?.close().catch(() => {});
  await state.worker?.stop().catch(() => {});
  state.report.seconds = (Date.now() - t0) / 1000;
  writeFileSync(join(SHOTS, 'report.json'), JSON.stringify(state.report, null, 2));
  summarize();
});

function summarize() {
  const lines = [];
  for (const r of state.report.results) {
    for (const p of r.problems ?? []) lines.push(`render problem ${r.renderer}/${r.fixture}: ${p}`);
    for (const f of r.failures ?? []) lines.push(`field problem ${r.renderer}/${r.fixture}: ${f}`);
  }
  for (const u of new Set(state.report.upstream)) lines.push(`upstream (not counted): ${u}`);
  for (const r of state.report.results) {
    for (const [stepName, how] of Object.entries(r.steps)) {
      const key = `${r.renderer}/${r.fixture}/${stepName}`;
      if (how === 'pass' && KNOWN_ISSUES[key]) lines.push(`known issue no longer reproduces, remove it from known-issues.json: ${key}`);
    }
  }
  lines.push(`report: ${join(SHOTS, 'report.json')}; screenshots in ${SHOTS}`);
  console.log(lines.join('\n'));
}

function fixture(name) {
  return JSON.parse(readFileSync(join(FIXTURE_DIR, `${name}.json`), 'utf8'));
}

/** The output schema of a fixture in any accepted request shape. */
function outputOf(body) {
  if (body.output) return body.output;
  let args = body.arguments ?? body.function?.arguments;
  if (typeof args === 'string') args = JSON.parse(args);
  return args.output;
}

async function problems() {
  const raw = await state.page.evaluate(() => {
    window.collectUnknownRenderers();
    return { console: window.renderProblems, visible: window.bt.renderFailures() };
  });
  const out = state.dialogs.splice(0);
  const seen = new Set(out);
  for (const p of raw.console) {
    const noise = UPSTREAM_NOISE.find((n) => n.test(p.text));
    if (noise) {
      state.report.upstream.push(noise.why);
      continue;
    }
    const text = `${p.kind}: ${p.text.replace(/\s+/g, ' ').slice(0, 300)}`;
    if (!seen.has(text)) out.push(text);
    seen.add(text);
  }
  for (const v of raw.visible) {
    const text = `on screen: ${v}`;
    if (!seen.has(text) && !out.some((o) => o.startsWith('no-applicable-renderer'))) out.push(text);
    seen.add(text);
  }
  return out;
}

/** A step: a subtest that is TODO when it is a known issue. */
function step(t, renderer, name, stepName, fn) {
  const key = `${renderer}/${name}/${stepName}`;
  const known = KNOWN_ISSUES[key];
  return t.test(stepName, known && !STRICT ? { todo: known } : {}, fn);
}

for (const renderer of RENDERERS.filter((r) => r !== 'react')) {
  describe(renderer, () => {
    for (const name of FIXTURES) {
      test(name, { timeout: 120_000 }, async (t) => {
        const body = fixture(name);
        const output = outputOf(body);
        const rec = { renderer, fixture: name, steps: {}, problems: [], failures: [], notes: [] };
        state.report.results.push(rec);
        const started = Date.now();
        let spec;
        let drive;

        await step(t, renderer, name, 'generate', async (s) => {
          if (renderer === 'jsonforms') {
            const r = await postJson(`${state.baseUrl}/v1/generate`, body);
            assert.equal(r.status, 200, `POST /v1/generate: ${JSON.stringify(r.body).slice(0, 500)}`);
            assert.ok(r.body.jsonSchema && r.body.uiSchema, 'answer has jsonSchema and uiSchema');
            spec = r.body;
          } else if (renderer === 'a2ui' || renderer === 'copilotkit') {
            const r = await postJson(`${state.baseUrl}/v1/generate?format=a2ui`, body);
            assert.equal(r.status, 200, `POST /v1/generate?format=a2ui: ${JSON.stringify(r.body).slice(0, 500)}`);
            assert.deepEqual(a2uiWrapperErrors(r.body), [], 'the answer validates against A2UI v0.9 server_to_client_list_wrapper.json');
            spec = r.body;
          } else {
            const r = await postJson(`${state.baseUrl}/v1/generate?format=rjsf`, body);
            if (r.status === 200 && r.body?.type === 'dgui_form') {
              for (const k of ['schema', 'uiSchema', 'formData']) assert.ok(k in r.body, `dgui_form has ${k}`);
              spec = r.body;
            } else {
              // format=rjsf not there yet: build the envelope from the JSON Forms answer.
              const j = await postJson(`${state.baseUrl}/v1/generate`, body);
              assert.equal(j.status, 200, `POST /v1/generate: ${JSON.stringify(j.body).slice(0, 500)}`);
              spec = { type: 'dgui_form', title: j.body.meta?.title, schema: j.body.jsonSchema, uiSchema: {}, formData: j.body.initialData, metadata: j.body.meta };
              rec.notes.push(`format=rjsf answered ${r.status}${r.body?.type ? ' ' + r.body.type : ''}: dgui_form built by the runner`);
              s.diagnostic(`format=rjsf answered ${r.status}; dgui_form built by the runner from the JSON Forms answer`);
            }
          }
          rec.steps.generate = 'pass';
        });
        if (!spec) return;

        if (!(await pageAlive())) await openPage();
        let rendered = false;
        await step(t, renderer, name, 'render', async () => {
          const run =
            renderer === 'jsonforms'
              ? state.page.evaluate((r) => window.renderJsonForms(r), spec)
              : renderer === 'a2ui'
                ? state.page.evaluate((w) => window.renderA2ui(w), spec)
                : renderer === 'copilotkit'
                  ? state.page.evaluate((w) => window.renderCopilotKit(w), spec)
                  : state.page.evaluate((f) => window.renderRjsf(f), spec);
          const outcome = await Promise.race([run.then(() => 'done', (e) => e), sleep(RENDER_LIMIT_MS).then(() => 'timeout')]);
          if (outcome !== 'done') {
            const why = outcome === 'timeout' ? `did not finish within ${RENDER_LIMIT_MS / 1000} s (a render loop?)` : `failed: ${outcome.message.split('\n')[0]}`;
            rec.problems.push(`render ${why}`);
            await openPage();
            assert.fail(`render ${why}`);
          }
          rendered = true;
          const p = await problems();
          rec.problems.push(...p);
          assert.deepEqual(p, [], `render problems:\n${p.join('\n')}`);
          rec.steps.render = 'pass';
        });

        const fatal = rec.problems.some((p) => /^(render-error|uncaught|render did not|render failed)/.test(p));
        if (rendered && !fatal) rec.axe = await axeRoot(state.page).catch((e) => [{ id: 'axe-failed', impact: 'n/a', help: String(e).split('\n')[0], nodes: 0 }]);
        if (!rendered || fatal) {
          for (const n of ['fields', 'valid', 'submit']) await t.test(n, (s) => s.skip('the render step failed'));
          return;
        }
        await step(t, renderer, name, 'fields', async (s) => {
          try {
            drive =
              renderer === 'jsonforms'
                ? await driveJsonForms(state.page, spec, { fixture: name })
                : renderer === 'a2ui'
                  ? await driveA2ui(state.page, spec, output)
                  : renderer === 'copilotkit'
                    ? await driveCopilotKit(state.page, spec, output)
                    : await driveRjsf(state.page, spec);
          } finally {
            await state.page.screenshot({ path: join(SHOTS, `${name}-${renderer}.png`), fullPage: true }).catch(() => {});
          }
          rec.failures.push(...drive.failures);
          rec.notes.push(...drive.notes);
          rec.fields = drive.fields;
          rec.fills = drive.fills;
          for (const n of drive.notes) s.diagnostic(n);
          const later = (await problems()).filter((p) => !rec.problems.includes(p));
          rec.problems.push(...later);
          assert.ok(drive.fields > 0, 'no field found to check');
          assert.deepEqual(drive.failures, [], `${drive.failures.length} field problem(s):\n${drive.failures.join('\n')}`);
          assert.deepEqual(later, [], `problems while filling:\n${later.join('\n')}`);
          if (renderer === 'rjsf') assert.ok(drive.submitted, 'RJSF onSubmit fired with data');
          if (renderer === 'a2ui' || renderer === 'copilotkit') assert.ok(drive.message, "the surface's submit button fired its action");
          rec.steps.fields = 'pass';
        });
        if (!drive || !rec.steps.fields) {
          // Nothing a person could submit: say so instead of checking partial data.
          const why = !drive ? 'the form could not be driven' : 'the fields step failed';
          await t.test('valid', (s) => s.skip(why));
          await t.test('submit', (s) => s.skip(why));
          return;
        }
        if (renderer === 'a2ui' || renderer === 'copilotkit') {
          // The surface's own action goes to /v1/submit as the renderer sent
          // it; the worker coerces the renderer's value types, validates
          // against output, and the tool message carries the data.
          // CopilotKit hands its host {userAction}: the same action, wrapped
          // the v0.8 way, which the worker reads alike.
          await step(t, renderer, name, 'valid', async () => {
            const message = renderer === 'a2ui' ? drive.message : { version: 'v0.9', action: drive.message.userAction };
            assert.deepEqual(a2uiClientErrors(message), [], 'the action validates against A2UI v0.9 client_to_server.json');
            rec.steps.valid = 'pass';
          });
          await step(t, renderer, name, 'submit', async () => {
            const r = await postJson(`${state.baseUrl}/v1/submit`, drive.message);
            rec.submit = { status: r.status, body: r.body };
            assert.equal(r.status, 200, `POST /v1/submit: ${JSON.stringify(r.body).slice(0, 800)}\naction: ${JSON.stringify(drive.message).slice(0, 800)}`);
            assert.ok(r.body.role === 'tool' || r.body.type === 'dgui_response', 'a tool message, or a dgui_response without a toolCallId');
            const content = submittedData(r.body);
            rec.data = content;
            assert.deepEqual(validate(output, content), [], `the tool message content breaks the output schema (ajv): ${JSON.stringify(content)}`);
            rec.steps.submit = 'pass';
          });
          rec.ms = Date.now() - started;
          return;
        }
        const data = renderer === 'rjsf' ? drive.submitted ?? drive.data : drive.data;
        rec.data = data;

        await step(t, renderer, name, 'valid', async () => {
          const errors = validate(output, data);
          rec.validation = errors;
          assert.deepEqual(errors, [], `the filled data breaks the output schema (ajv): ${JSON.stringify(errors)}\ndata: ${JSON.stringify(data)}`);
          rec.steps.valid = 'pass';
        });

        await step(t, renderer, name, 'submit', async (s) => {
          if (!state.submitAvailable) {
            rec.steps.submit = 'skip';
            s.skip(`${state.submitProbe}: /v1/submit is not there yet (data validated locally with ajv instead)`);
            return;
          }
          const r = await postJson(`${state.baseUrl}/v1/submit`, { output, data });
          rec.submit = { status: r.status, body: r.body };
          assert.equal(r.status, 200, `POST /v1/submit: ${JSON.stringify(r.body).slice(0, 800)}`);
          // No toolCallId sent: DGUI's response, no made-up tool call.
          assert.equal(r.body.type, 'dgui_response');
          assert.equal(r.body.toolCallId, undefined);
          assert.deepEqual(r.body.data, data, 'the dgui_response carries the submitted data');
          rec.steps.submit = 'pass';
        });
        rec.ms = Date.now() - started;
      });
    }
  });
}

// ---------------------------------------------------------------- react
// format=react: the TSX module bundled with esbuild against the real
// packages, mounted with the answer's initialData, submitted with a required
// field empty (the error shows beside it, respond stays silent), then filled
// and submitted; what respond receives must satisfy output and /v1/submit.
if (RENDERERS.includes('react')) {
  describe('react', () => {
    for (const name of FIXTURES) {
      test(name, { timeout: 120_000 }, async (t) => {
        const body = fixture(name);
        const output = outputOf(body);
        const rec = { renderer: 'react', fixture: name, steps: {}, problems: [], failures: [], notes: [] };
        state.report.results.push(rec);
        const started = Date.now();
        let answer;
        let drive;
        await step(t, 'react', name, 'generate', async () => {
          const r = await postJson(`${state.baseUrl}/v1/generate?format=react`, body);
          assert.equal(r.status, 200, `POST /v1/generate?format=react: ${JSON.stringify(r.body).slice(0, 500)}`);
          assert.equal(typeof r.body.module, 'string', 'the answer carries the module');
          answer = r.body;
          rec.steps.generate = 'pass';
        });
        if (!answer) return;
        const seen = [];
        const onConsole = (m) => m.type() === 'error' && seen.push(`console-error: ${m.text()}`);
        const onError = (e) => seen.push(`uncaught: ${e.message}`);
        state.page.on('console', onConsole);
        state.page.on('pageerror', onError);
        try {
          await step(t, 'react', name, 'render', async () => {
            const path = await bundleReact(answer, name, join(BROWSER_DIR, 'dist'));
            await state.page.goto(`${state.static.url}${path}`);
            await state.page.waitForFunction(() => window.formReady === true);
            await state.page.evaluate((d) => window.mountForm(d), answer.initialData);
            await state.page.locator('form').first().waitFor();
            await sleep(200);
            seen.push(...state.dialogs.splice(0));
            rec.problems.push(...seen);
            assert.deepEqual(seen, [], `render problems:\n${seen.join('\n')}`);
            rec.steps.render = 'pass';
          });
          if (!rec.steps.render) return;
          await step(t, 'react', name, 'fields', async (s) => {
            try {
              drive = await driveReact(state.page, output);
            } finally {
              await state.page.screenshot({ path: join(SHOTS, `${name}-react.png`), fullPage: true }).catch(() => {});
            }
            rec.failures.push(...drive.failures);
            rec.notes.push(...drive.notes);
            rec.fields = drive.fields;
            rec.fills = drive.fills;
            rec.invalid = drive.invalid;
            for (const n of drive.notes) s.diagnostic(n);
            seen.push(...state.dialogs.splice(0));
            const later = seen.filter((p) => !rec.problems.includes(p));
            rec.problems.push(...later);
            assert.ok(drive.fields > 0, 'no field found to fill');
            assert.deepEqual(drive.failures, [], `${drive.failures.length} field problem(s):\n${drive.failures.join('\n')}`);
            assert.deepEqual(later, [], `problems while filling:\n${later.join('\n')}`);
            rec.steps.fields = 'pass';
          });
        } finally {
          state.page.off('console', onConsole);
          state.page.off('pageerror', onError);
        }
        if (!drive?.data) {
          await t.test('valid', (s) => s.skip('respond received nothing'));
          await t.test('submit', (s) => s.skip('respond received nothing'));
          return;
        }
        rec.data = drive.data;
        await step(t, 'react', name, 'valid', async () => {
          const errors = validate(output, drive.data);
          assert.deepEqual(errors, [], `respond received data that breaks output (ajv): ${JSON.stringify(errors)}\ndata: ${JSON.stringify(drive.data)}`);
          rec.steps.valid = 'pass';
        });
        await step(t, 'react', name, 'submit', async () => {
          const r = await postJson(`${state.baseUrl}/v1/submit`, { specHash: answer.meta.specHash, toolCallId: 'call_react', data: drive.data });
          rec.submit = { status: r.status, body: r.body };
          assert.equal(r.status, 200, `POST /v1/submit: ${JSON.stringify(r.body).slice(0, 800)}`);
          assert.ok(r.body.role === 'tool' || r.body.type === 'dgui_response', 'a tool message, or a dgui_response without a toolCallId');
          // As JSON: a field respond holds as undefined is not in JSON at all.
          assert.deepEqual(submittedData(r.body), JSON.parse(JSON.stringify(drive.data)), 'the tool message carries what respond received');
          rec.steps.submit = 'pass';
        });
        rec.ms = Date.now() - started;
      });
    }
  });
}

// ---------------------------------------------------------------- layout
// Rows side by side, one column on mobile, fields that appear and disappear
// with the field that controls them, and wizard steps, in both renderers.

/** Generates `name` in the renderer's format and renders it; returns the spec. */
async function renderFixture(renderer, name) {
  if (!(await pageAlive())) await openPage();
  const body = fixture(name);
  const url = renderer === 'rjsf' ? `${state.baseUrl}/v1/generate?format=rjsf` : `${state.baseUrl}/v1/generate`;
  const r = await postJson(url, body);
  assert.equal(r.status, 200, `POST ${url}: ${JSON.stringify(r.body).slice(0, 300)}`);
  if (renderer === 'rjsf') await state.page.evaluate((f) => window.renderRjsf(f), r.body);
  else await state.page.evaluate((s) => window.renderJsonForms(s), r.body);
  await sleep(300);
  return r.body;
}

const field = (label, id) => ({ label, id: `root_${id}` });

for (const renderer of RENDERERS.filter((r) => r === 'jsonforms' || r === 'rjsf')) {
  describe(`${renderer} layout`, () => {
    test('rows sit side by side; mobile is one column', { timeout: 60_000 }, async () => {
      await renderFixture(renderer, 'name-address-rows');
      await state.page.screenshot({ path: join(SHOTS, `layout-rows-${renderer}.png`), fullPage: true }).catch(() => {});
      const rows = await checkPlacement(state.page, renderer, [
        [field('Given name', 'givenName'), field('Family name', 'familyName'), 'row'],
        [field('City', 'city'), field('Postal code', 'postalCode'), 'row'],
        [field('Street', 'street'), field('City', 'city'), 'column'],
      ]);
      await renderFixture(renderer, 'seed-address-mobile');
      await state.page.screenshot({ path: join(SHOTS, `layout-mobile-${renderer}.png`), fullPage: true }).catch(() => {});
      const mobile = await checkPlacement(state.page, renderer, [
        [field('First Name', 'firstName'), field('Last Name', 'lastName'), 'column'],
        [field('City', 'city'), field('Postal Code', 'postalCode'), 'column'],
      ]);
      assert.deepEqual([...rows, ...mobile], []);
    });

    test('a discriminated oneOf shows the chosen branch', { timeout: 60_000 }, async () => {
      await renderFixture(renderer, 'contact-method-discriminated');
      const selector = { label: 'Contact', id: 'root_contact__oneof_select' };
      const email = field('E-mail address', 'contact_address');
      const phone = field('Phone number', 'contact_number');
      const street = field('Street', 'contact_street');
      await pick(state.page, renderer, { ...selector, label: 'Channel' }, 'Phone call');
      assert.equal(await visible(state.page, renderer, phone), true, 'Phone call: the phone number shows');
      assert.equal(await visible(state.page, renderer, email), false, 'Phone call: the e-mail address is hidden');
      await pick(state.page, renderer, { ...selector, label: 'Channel' }, 'Letter');
      assert.equal(await visible(state.page, renderer, street), true, 'Letter: the street shows');
      assert.equal(await visible(state.page, renderer, phone), false, 'Letter: the phone number is hidden');
      await state.page.screenshot({ path: join(SHOTS, `layout-oneof-${renderer}.png`), fullPage: true }).catch(() => {});
    });

    test('if/then/else and dependencies show fields when they apply', { timeout: 60_000 }, async () => {
      await renderFixture(renderer, 'if-then-else-country');
      const country = field('Country', 'country');
      const taxId = field('Tax ID (Steuer-ID)', 'taxId');
      // The options show country names; `DE` and `US` are what is submitted.
      await choose(state.page, renderer, country, 'Germany');
      assert.equal(await visible(state.page, renderer, taxId), true, 'DE: the tax ID shows');
      await choose(state.page, renderer, country, 'United States');
      assert.equal(await visible(state.page, renderer, taxId), false, 'US: the tax ID is hidden');
      if (renderer === 'jsonforms') {
        // RJSF shows declared properties always; JSON Forms follows the rules.
        assert.equal(await visible(state.page, renderer, field('State', 'state')), true, 'US: the state shows');
        assert.equal(await visible(state.page, renderer, field('Postcode', 'postcode')), false, 'US: the postcode is hidden');
      }
      await state.page.screenshot({ path: join(SHOTS, `layout-if-then-${renderer}.png`), fullPage: true }).catch(() => {});

      await renderFixture(renderer, 'draft07-dependencies');
      const billing = field('Billing address', 'billing_address');
      assert.equal(await visible(state.page, renderer, billing), false, 'no card: no billing address');
      const card = renderer === 'rjsf' ? state.page.locator('#root_credit_card') : state.page.getByLabel('Credit card', { exact: true });
      await card.fill('4242');
      await sleep(300);
      assert.equal(await visible(state.page, renderer, billing), true, 'a card number brings the billing address');
    });

    test('long forms are wizards', { timeout: 60_000 }, async () => {
      const spec = await renderFixture(renderer, 'long-application-form');
      await state.page.screenshot({ path: join(SHOTS, `layout-steps-${renderer}.png`), fullPage: true }).catch(() => {});
      if (renderer === 'jsonforms') {
        const cat = spec.uiSchema.elements.find((e) => e.type === 'Categorization');
        assert.ok(cat, 'the uiSchema has a Categorization');
        assert.equal(cat.options?.variant, 'stepper');
        for (const step of cat.elements) {
          const shown = await state.page.getByText(step.label, { exact: true }).first().isVisible().catch(() => false);
          assert.ok(shown, `step "${step.label}" is on screen`);
        }
      } else {
        const steps = spec.uiSchema['ui:options']?.steps;
        assert.ok(Array.isArray(steps) && steps.length >= 3, 'ui:options.steps lists the steps');
        // Stock RJSF shows every step on one page, in step order.
        let lastY = -1;
        for (const step of steps) {
          const box = await state.page.locator(`#root_${step.fields[0]}`).first().boundingBox();
          assert.ok(box && box.y > lastY, `step "${step.label}" follows the one before`);
          lastY = box.y;
        }
      }
    });
  });
}

// ---------------------------------------------------------------- A2UI layout
// Rows are A2UI Rows on desktop and absent on mobile. A2UI v0.9 has no
// visibility, so fields a rule would hide stay on screen (and reachable);
// wizards are Tabs.
if (RENDERERS.includes('a2ui')) {
  describe('a2ui layout', () => {
    async function renderA2ui(name) {
      if (!(await pageAlive())) await openPage();
      const r = await postJson(`${state.baseUrl}/v1/generate?format=a2ui`, fixture(name));
      assert.equal(r.status, 200, `POST /v1/generate?format=a2ui: ${JSON.stringify(r.body).slice(0, 300)}`);
      await state.page.evaluate((w) => window.renderA2ui(w), r.body);
      await sleep(300);
      return r.body;
    }

    test('rows sit side by side; mobile is one column', { timeout: 60_000 }, async () => {
      await renderA2ui('name-address-rows');
      await state.page.screenshot({ path: join(SHOTS, 'layout-rows-a2ui.png'), fullPage: true }).catch(() => {});
      const rows = await checkPlacement(state.page, 'a2ui', [
        [{ label: 'Given name' }, { label: 'Family name' }, 'row'],
        [{ label: 'City' }, { label: 'Postal code' }, 'row'],
        [{ label: 'Street' }, { label: 'City' }, 'column'],
      ]);
      await state.context.pages()[0].setViewportSize({ width: 390, height: 844 });
      await renderA2ui('seed-address-mobile');
      await state.page.screenshot({ path: join(SHOTS, 'layout-mobile-a2ui.png'), fullPage: true }).catch(() => {});
      const mobile = await checkPlacement(state.page, 'a2ui', [
        [{ label: 'First Name' }, { label: 'Last Name' }, 'column'],
        [{ label: 'City' }, { label: 'Postal Code' }, 'column'],
      ]);
      await state.page.setViewportSize({ width: 1000, height: 800 });
      assert.deepEqual([...rows, ...mobile], []);
    });

    test('fields under a rule stay reachable; a conditional requirement is a check', { timeout: 60_000 }, async () => {
      const answer = await renderA2ui('if-then-else-country');
      for (const label of ['Tax ID (Steuer-ID)', 'State', 'Postcode']) {
        const shown = await state.page.locator('a2ui-basic-textfield, a2ui-choicepicker').filter({ has: state.page.getByText(label, { exact: true }) }).count();
        assert.ok(shown > 0, `"${label}" is on screen whatever the country`);
      }
      const text = JSON.stringify(answer.messages[1]);
      assert.match(text, /"call":"or"/, 'a conditional requirement is an or(not(condition), required) check');
      await state.page.screenshot({ path: join(SHOTS, 'layout-if-then-a2ui.png'), fullPage: true }).catch(() => {});
    });

    test('array items: Add appends an empty item, Remove drops the item of its row', { timeout: 60_000 }, async () => {
      await renderA2ui('invoice-line-items');
      const items = async () => (await state.page.evaluate(() => Object.values(window.a2uiDataModel().surfaces)[0])).lineItems;
      const removes = () => state.page.locator('a2ui-basic-button button').filter({ hasText: /^\s*Remove\s*$/ });
      assert.equal((await items()).length, 2, 'the two pre-filled line items');
      assert.equal(await removes().count(), 2, 'a Remove button per item');
      await state.page.locator('a2ui-basic-button button').filter({ hasText: /^\s*Add / }).first().click();
      await sleep(300);
      assert.equal((await items()).length, 3, 'Add appended an item');
      assert.equal(await removes().count(), 3, 'the new item has its row and Remove button');
      await removes().first().click();
      await sleep(300);
      const left = await items();
      assert.equal(left.length, 2, 'Remove dropped one item');
      assert.equal(left[0].name, 'Travel', "Remove dropped the first row's item, not another");
      await state.page.screenshot({ path: join(SHOTS, 'layout-array-a2ui.png'), fullPage: true }).catch(() => {});
    });

    test('long forms are tabs', { timeout: 60_000 }, async () => {
      const answer = await renderA2ui('long-application-form');
      const tabs = answer.messages[1].updateComponents.components.find((c) => c.component === 'Tabs');
      assert.ok(tabs && tabs.tabs.length >= 3, 'the surface has Tabs, one per step');
      for (const tab of tabs.tabs) {
        assert.ok(await state.page.locator('a2ui-tabs button').filter({ hasText: tab.title }).first().isVisible(), `tab "${tab.title}" is on screen`);
      }
      await state.page.screenshot({ path: join(SHOTS, 'layout-steps-a2ui.png'), fullPage: true }).catch(() => {});
    });
  });
}

// The MCP App view (ui://genui/form from POST /mcp) inside an MCP Apps host:
// AppBridge around a sandboxed iframe (lib/mcp-app.mjs, src/mcp-host.js).
describe('MCP App view in an AppBridge host', () => {
  test('fills from the tool input, shows errors by field, submits through the host', { timeout: 60_000 }, async () => {
    await driveMcpApp({ context: state.context, staticUrl: state.static.url, baseUrl: state.baseUrl, shots: SHOTS });
  });
});
