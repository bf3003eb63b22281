// The CopilotKit loop in Chromium: a CopilotKit chat (src/copilotkit-loop.jsx,
// @copilotkit/react-core/v2) whose frontend tool is the worker's
// `generateUserInterface`, registered with the TypeScript client's
// `useGenerateUserInterface`, talks to @copilotkit/runtime served here on
// 127.0.0.1. The runtime's agent is scripted, no model: its first run calls
// the tool with a small `output` schema; its next run reads the tool message
// and answers. A person types in the chat, fills the worker's form in it and
// submits; the worker validates the data and the agent receives exactly it.
//
//   cd tests/browser && npm run build && node test.mjs copilotkit-loop.mjs
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { AbstractAgent } from '@ag-ui/client';
import { EventType } from '@ag-ui/core';
import { Observable } from 'rxjs';
import { BROWSER_DIR, CHROMIUM_ARGS, workerForTests } from './lib/servers.mjs';

// The runtime reports usage unless told not to; nothing leaves 127.0.0.1.
process.env.COPILOTKIT_TELEMETRY_DISABLED = 'true';
process.env.DO_NOT_TRACK = '1';
const { CopilotRuntime } = await import('@copilotkit/runtime/v2');
const { createCopilotNodeListener } = await import('@copilotkit/runtime/v2/node');

const TOOL_NAME = 'generateUserInterface';
const TOOL_CALL_ID = 'call_booking_1';
const RUNTIME_PATH = '/api/copilotkit';
const BOOKING_CALL = {
  description: 'Book a table: the name for the booking and how many seats',
  output: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 1 },
      seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 12 },
    },
    required: ['name', 'seats'],
    additionalProperties: false,
  },
};
const TYPED = { name: 'Ada Lovelace', seats: 4 };
const PAGE_FILES = { 'copilotkit-loop.html': 'text/html', 'copilotkit-loop.js': 'text/javascript', 'copilotkit-loop.css': 'text/css' };
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** What the scripted agent saw: every run's input, and the tool messages it read. */
const agentLog = { runs: [], toolMessages: [], answers: [] };
/** What the worker answered the page's /v1 requests, in order. */
const workerAnswers = [];

/** The events of one run: a call of the worker's tool, or the answer to its result. */
function scriptFor(input) {
  agentLog.runs.push(input);
  const ids = { threadId: input.threadId, runId: input.runId };
  const toolMessage = input.messages.find((m) => m.role === 'tool' && m.toolCallId === TOOL_CALL_ID);
  if (!toolMessage) {
    return [
      { type: EventType.RUN_STARTED, ...ids },
      { type: EventType.TOOL_CALL_START, toolCallId: TOOL_CALL_ID, toolCallName: TOOL_NAME, parentMessageId: 'msg_call' },
      { type: EventType.TOOL_CALL_ARGS, toolCallId: TOOL_CALL_ID, delta: JSON.stringify(BOOKING_CALL) },
      { type: EventType.TOOL_CALL_END, toolCallId: TOOL_CALL_ID },
      { type: EventType.RUN_FINISHED, ...ids },
    ];
  }
  agentLog.toolMessages.push(toolMessage);
  const answer = answerTo(toolMessage.content);
  agentLog.answers.push(answer);
  return [
    { type: EventType.RUN_STARTED, ...ids },
    { type: EventType.TEXT_MESSAGE_START, messageId: `msg_answer_${agentLog.answers.length}`, role: 'assistant' },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `msg_answer_${agentLog.answers.length}`, delta: answer },
    { type: EventType.TEXT_MESSAGE_END, messageId: `msg_answer_${agentLog.answers.length}` },
    { type: EventType.RUN_FINISHED, ...ids },
  ];
}

/** The agent's reply to the tool's result (the person's data as JSON). */
function answerTo(content) {
  try {
    const booking = JSON.parse(content);
    return `Booked ${booking.seats} seats for ${booking.name}.`;
  } catch {
    return 'The form answered something that is not JSON.';
  }
}

/** The runtime's agent: no model, `scriptFor` decides each run. */
class ScriptedAgent extends AbstractAgent {
  run(input) {
    return new Observable((subscriber) => {
      for (const event of scriptFor(input)) subscriber.next(event);
      subscriber.complete();
    });
  }
}

/** Hands a request of the page to the worker (as an app's server would) and records the answer. */
async function forwardToWorker(req, res, baseUrl) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  const headers = { 'content-type': req.headers['content-type'] ?? 'application/json' };
  const answer = await fetch(baseUrl + req.url, { method: req.method, headers, body, signal: AbortSignal.timeout(60_000) });
  const text = await answer.text();
  workerAnswers.push({ method: req.method, path: new URL(req.url, 'http://x').pathname, status: answer.status, body: text });
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
}

/** One origin for the page, the CopilotKit runtime and the worker's /v1 routes. */
async function startAppServer(baseUrl) {
  const runtime = new CopilotRuntime({ agents: { default: new ScriptedAgent() } });
  const copilot = createCopilotNodeListener({ runtime, basePath: RUNTIME_PATH, activateChannels: false });
  const server = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path.startsWith(RUNTIME_PATH)) return void copilot(req, res);
    if (path.startsWith('/v1/')) {
      return void forwardToWorker(req, res, baseUrl).catch((e) => res.writeHead(502).end(String(e)));
    }
    const file = path === '/' ? 'copilotkit-loop.html' : path.slice(1);
    if (!(file in PAGE_FILES)) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': PAGE_FILES[file], 'cache-control': 'no-store' });
    res.end(readFileSync(join(BROWSER_DIR, 'dist', file)));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/** Waits until `ready()` is truthy (polled), failing after `ms` with `what`. */
async function until(ready, what, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (ready()) return;
    await sleep(100);
  }
  assert.fail(`waited ${ms / 1000} s for ${what}`);
}

/**
 * Types `value` into the field labelled `label` and waits until the form has
 * taken it: JSON Forms' material inputs pass a change on after a pause, and
 * the field stops being marked invalid (a required, empty field is) when
 * they have.
 */
async function type(page, label, value) {
  const field = page.getByLabel(label).first();
  await field.fill(value);
  const end = Date.now() + 5000;
  while ((await field.getAttribute('aria-invalid')) !== 'false') {
    if (Date.now() > end) assert.fail(`the form did not take "${value}" in ${label}`);
    await sleep(50);
  }
}

const state = {};

before(async () => {
  Object.assign(state, await workerForTests());
  state.app = await startAppServer(state.baseUrl);
  state.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  state.context = await state.browser.newContext({ viewport: { width: 1000, height: 900 }, timezoneId: 'UTC', locale: 'en-US' });
  await state.context.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (route) => route.abort());
  state.page = await state.context.newPage();
  state.page.setDefaultTimeout(15_000);
  state.errors = [];
  state.page.on('pageerror', (e) => state.errors.push(e.message));
  await state.page.goto(state.app.url);
  await state.page.waitForFunction(() => window.appReady === true);
});

after(async () => {
  await state.browser?.close().catch(() => {});
  await state.app?.close().catch(() => {});
  await state.worker?.stop().catch(() => {});
});

test('a person fills the worker form a CopilotKit agent asked for, and the agent gets the data', { timeout: 120_000 }, async (t) => {
  const page = state.page;

  await t.test('the person asks; the agent calls the worker tool the page registered', async () => {
    const input = page.getByRole('textbox').first();
    await input.fill('Book me a table, please');
    await input.press('Enter');
    await until(() => agentLog.runs.length >= 1, 'the agent to be run');
    const offered = agentLog.runs[0].tools.find((tool) => tool.name === TOOL_NAME);
    assert.ok(offered, `the agent was offered ${TOOL_NAME} (tools: ${agentLog.runs[0].tools.map((x) => x.name)})`);
    assert.equal(offered.parameters.properties.description.type, 'string');
    assert.ok(agentLog.runs[0].messages.some((m) => m.role === 'user' && m.content === 'Book me a table, please'));
  });

  await t.test("the worker's form appears in the chat", async () => {
    await page.getByLabel('Name').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByLabel('Seats').first().waitFor({ state: 'visible' });
    const generate = workerAnswers.find((a) => a.path === '/v1/generate');
    assert.equal(generate?.status, 200, `POST /v1/generate: ${generate?.body?.slice(0, 300)}`);
  });

  await t.test('a submission without seats is refused beside the form and reaches no agent', async () => {
    await type(page, 'Name', TYPED.name);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('alert').filter({ hasText: '/seats' }).first().waitFor({ state: 'visible' });
    const refused = workerAnswers.filter((a) => a.path === '/v1/submit');
    assert.deepEqual(refused.map((a) => a.status), [422]);
    assert.equal(agentLog.toolMessages.length, 0, 'no tool result went to the agent');
  });

  await t.test('the person completes the form; the worker validates it', async () => {
    await type(page, 'Seats', String(TYPED.seats));
    await page.getByRole('button', { name: 'Submit' }).click();
    await until(() => workerAnswers.filter((a) => a.path === '/v1/submit').length === 2, 'the second submission');
    const accepted = workerAnswers.filter((a) => a.path === '/v1/submit')[1];
    assert.equal(accepted.status, 200, `POST /v1/submit: ${accepted.body.slice(0, 300)}`);
    const message = JSON.parse(accepted.body);
    assert.equal(message.role, 'tool');
    assert.equal(message.toolCallId, TOOL_CALL_ID);
    assert.deepEqual(JSON.parse(message.content), TYPED);
  });

  await t.test('the agent receives exactly the validated data as the tool result, then answers', async () => {
    await until(() => agentLog.toolMessages.length >= 1, 'the agent to receive the tool result');
    const accepted = JSON.parse(workerAnswers.filter((a) => a.path === '/v1/submit')[1].body);
    assert.equal(agentLog.toolMessages.length, 1);
    assert.equal(agentLog.toolMessages[0].content, accepted.content);
    assert.deepEqual(JSON.parse(agentLog.toolMessages[0].content), TYPED);
    await page.getByText(`Booked ${TYPED.seats} seats for ${TYPED.name}.`).waitFor({ state: 'visible' });
    assert.deepEqual(state.errors, [], 'no page errors');
  });
});
