// An AG-UI interrupt answered by a person in Chromium: the LangGraph agent of
// examples/langgraph (served by ag-ui-langgraph, no model) ends its run with
// an interrupt; the worker's /v1/interrupt answers the form; a person fills
// it in JSON Forms; /v1/submit checks the answer and signs the resume entry;
// the next run resumes the graph, whose server verifies the signature against
// the interrupt it raised and finishes with the person's answer in its state.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { driveJsonForms } from './lib/jsonforms.mjs';
import { BROWSER_WEBHOOK_SECRET, REPO_ROOT, freePort, postJson, startAppPage, stopAppPage } from './lib/servers.mjs';

const PYTHON = join(homedir(), '.cache/genui-worker/venv/bin/python');
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

let state;
let agent;

/** The agent server of examples/langgraph on a free port, up within 60 s. */
async function startAgent() {
  const port = await freePort();
  const child = spawn(PYTHON, ['agent.py', '--port', String(port)], {
    cwd: join(REPO_ROOT, 'examples/langgraph'),
    env: { ...process.env, WEBHOOK_SECRET: BROWSER_WEBHOOK_SECRET },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); Date.now() - started < 60_000; await sleep(200)) {
    const up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (up) return { child, base };
  }
  child.kill();
  throw new Error(`${PYTHON} examples/langgraph/agent.py did not answer /healthz within 60 s (run ./scripts/setup.sh)`);
}

/** One AG-UI run: the events of the agent's SSE answer, in order. */
async function run(input) {
  const r = await fetch(`${agent.base}/agent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ state: {}, messages: [], tools: [], context: [], forwardedProps: {}, ...input }),
    signal: AbortSignal.timeout(60_000),
  });
  assert.equal(r.status, 200, `agent run: ${r.status}`);
  const text = await r.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

before(async () => {
  agent = await startAgent();
  state = await startAppPage();
});

after(async () => {
  agent?.child.kill();
  if (state) await stopAppPage(state);
});

test('a person answers a LangGraph interrupt in JSON Forms and the graph resumes with it', { timeout: 120_000 }, async () => {
  const threadId = `thread-browser-${Date.now()}`;
  const first = await run({ threadId, runId: 'run-1' });
  const finished = first.at(-1);
  assert.equal(finished.type, 'RUN_FINISHED', JSON.stringify(finished));
  assert.equal(finished.outcome?.type, 'interrupt', JSON.stringify(finished));
  const [interrupt] = finished.outcome.interrupts;

  const form = await postJson(`${state.baseUrl}/v1/interrupt`, { interrupt, format: 'jsonforms' });
  assert.equal(form.status, 200, JSON.stringify(form.body).slice(0, 300));
  assert.ok(form.body.meta.interrupt.token, 'the form carries the interrupt token');
  await state.page.evaluate((answer) => window.renderJsonForms(answer), form.body);
  const drive = await driveJsonForms(state.page, form.body);
  await state.page.screenshot({ path: join(REPO_ROOT, 'tests/browser/screenshots/interrupt-jsonforms.png'), fullPage: true }).catch(() => {});
  assert.deepEqual(drive.failures, [], 'the person can fill every field');
  const typed = drive.data;
  assert.deepEqual(Object.keys(typed).sort(), ['quarter', 'revenue', 'year'], JSON.stringify(typed));

  const entry = await postJson(`${state.baseUrl}/v1/submit`, {
    specHash: form.body.meta.specHash,
    interruptId: interrupt.id,
    interruptToken: form.body.meta.interrupt.token,
    data: typed,
  });
  assert.equal(entry.status, 200, JSON.stringify(entry.body).slice(0, 300));
  assert.equal(entry.body.status, 'resolved');

  // The same entry with another answer: the agent refuses it, and the
  // interrupt stays open.
  const forged = { ...entry.body, payload: { ...entry.body.payload, revenue: 1 } };
  const refused = await run({ threadId, runId: 'run-2', resume: [forged] });
  assert.equal(refused.find((e) => e.type === 'RUN_ERROR')?.code, 'invalid_resume_signature');

  const resumed = await run({ threadId, runId: 'run-3', resume: [entry.body] });
  const types = resumed.map((e) => e.type);
  assert.ok(!types.includes('RUN_ERROR'), `the agent refused the entry: ${JSON.stringify(resumed.find((e) => e.type === 'RUN_ERROR'))}`);
  assert.equal(resumed.at(-1).type, 'RUN_FINISHED');
  assert.notEqual(resumed.at(-1).outcome?.type, 'interrupt', 'the graph finished');
  const snapshot = resumed.filter((e) => e.type === 'STATE_SNAPSHOT').at(-1);
  assert.deepEqual(snapshot?.snapshot?.filing, typed, 'the graph holds what the person typed');

  assert.deepEqual(state.errors, []);
});
