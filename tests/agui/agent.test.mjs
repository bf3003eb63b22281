// Real clients against the worker under wrangler dev (GENUI_BASE), started
// with a model configured against the scripted model server by the harness
// test `e2e-stream` (cargo test -p genui-harness --test e2e-stream -- --ignored):
//
// - @ag-ui/client's HttpAgent runs /v1/agent; every event it receives is
//   checked by @ag-ui/core's own schemas (and for unknown keys), and the
//   activity it ends with is the non-streamed answer's UI;
// - the A2UI way back: a user action from our surface is a submission,
//   answered with TOOL_CALL_RESULT, or with the field errors;
// - a reload: the activity message restored, its specHash and the typed
//   values re-render the same form through /v1/specs/<specHash>/render;
// - a plain SSE client on /v1/generate applies the patches with
//   fast-json-patch and ends with the non-streamed answer's UI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import jsonpatch from 'fast-json-patch';

const BASE = process.env.GENUI_BASE;
if (!BASE) throw new Error('GENUI_BASE is unset: run through `cargo test -p genui-harness --test e2e-stream -- --ignored`');
const RUN = `${process.pid}-${Date.now()}`;
// The worker runs with API_KEYS: the streaming routes need the key like the JSON ones.
const AUTH = process.env.GENUI_API_KEY ? { authorization: `Bearer ${process.env.GENUI_API_KEY}` } : {};

const output = {
  type: 'object', required: ['firstName', 'country'],
  properties: {
    firstName: { type: 'string', title: 'First Name' },
    country: { type: 'string', enum: ['GB', 'US', 'DE'] },
    newsletter: { type: 'boolean' },
  },
};

/** Arguments of a generateUserInterface call; `[delay:ms]` slows the scripted model. */
function args(tag, extra = {}) {
  return { description: `A sign-up form. [delay:1200] ${tag} ${RUN}`, data: { firstName: 'Ada' }, output, ...extra };
}

/** Runs /v1/agent with HttpAgent; returns the events and the agent. */
async function runAgent({ messages = [], forwardedProps = {}, context = [] }) {
  const agent = new HttpAgent({ url: `${BASE}/v1/agent`, headers: AUTH, threadId: `thread-${RUN}`, initialMessages: messages });
  const events = [];
  const warnings = [];
  const warn = console.warn;
  console.warn = (...a) => { warnings.push(a.join(' ')); };
  try {
    await agent.runAgent({ runId: `run-${RUN}-${Math.random().toString(36).slice(2)}`, forwardedProps, context }, {
      onEvent({ event }) { events.push(event); },
    });
  } finally {
    console.warn = warn;
  }
  for (const event of events) {
    const parsed = EventSchemas.safeParse(event);
    assert.ok(parsed.success, `${event.type}: ${JSON.stringify(parsed.error?.issues)}`);
  }
  // The schemas are loose; HttpAgent warns about (and strips) unknown keys.
  assert.deepEqual(warnings.filter((w) => w.includes('unrecognised')), []);
  return { events, agent };
}

function toolCallMessage(callId, callArgs) {
  return [
    { id: 'u1', role: 'user', content: 'Sign me up' },
    { id: 'a1', role: 'assistant', toolCalls: [{ id: callId, type: 'function', function: { name: 'generateUserInterface', arguments: JSON.stringify(callArgs) } }] },
  ];
}

async function generateJson(body, format) {
  const res = await fetch(`${BASE}/v1/generate${format ? `?format=${format}` : ''}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...AUTH }, body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

// Provenance: `meta`, or `metadata` in the RJSF and LMUI answers.
const withoutMeta = ({ meta, metadata, ...rest }) => rest;
const types = (events) => events.map((e) => e.type);

test('HttpAgent: the deterministic path is one snapshot, equal to the JSON answer', async () => {
  const callArgs = args('deterministic', { generator: 'deterministic' });
  const { events, agent } = await runAgent({ messages: toolCallMessage('call_det', callArgs) });
  assert.deepEqual(types(events), ['RUN_STARTED', 'ACTIVITY_SNAPSHOT', 'RUN_FINISHED']);
  const activity = agent.messages.find((m) => m.role === 'activity');
  assert.equal(activity.activityType, 'genui.jsonforms');
  const json = await generateJson({ ...callArgs, toolCallId: 'call_det' });
  assert.deepEqual(withoutMeta(activity.content), withoutMeta(json));
  assert.equal(events.at(-1).result.generator, 'deterministic');
});

test('HttpAgent: format=a2ui is the A2UI middleware\'s activity, refined by a delta to the model\'s proven answer', async () => {
  const callArgs = args('a2ui');
  const { events, agent } = await runAgent({ messages: toolCallMessage('call_a2ui', callArgs), forwardedProps: { format: 'a2ui' } });
  assert.deepEqual(types(events), ['RUN_STARTED', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA', 'RUN_FINISHED']);
  const [snapshot, delta] = [events[1], events[2]];
  assert.equal(snapshot.activityType, 'a2ui-surface');
  assert.equal(snapshot.messageId, 'a2ui-surface-call_a2ui');
  assert.equal(delta.messageId, snapshot.messageId);
  const activity = agent.messages.find((m) => m.role === 'activity');
  // After the run the JSON endpoint hits the model's spec: the same UI.
  const json = await generateJson({ ...callArgs, toolCallId: 'call_a2ui' }, 'a2ui');
  assert.deepEqual(activity.content.a2ui_operations, json.messages);
  // The spec hash of the answer's header travels with the activity, so a
  // client restoring its messages can re-render the form.
  assert.match(activity.content.metadata.specHash, /^[0-9a-f]{64}$/);
  assert.equal(events.at(-1).result.generator, 'model');
  assert.ok(events.at(-1).result.timings.firstUiMs < events.at(-1).result.timings.totalMs);
});

test('HttpAgent: a user action on our surface is a submission, answered with the tool message or the field errors', async () => {
  const callArgs = args('submit');
  // A CopilotKit frontend sends its registered catalog (still under the id
  // from before A2UI's restructure) as a context entry: the surface uses it.
  const catalogId = 'https://a2ui.org/specification/v0_9/basic_catalog.json';
  const description = 'A2UI Component Schema — available components for generating UI surfaces. Use these component names and properties when creating A2UI operations.';
  const catalogContext = [{ description, value: JSON.stringify({ catalogId, components: {} }) }];
  const { agent } = await runAgent({ messages: toolCallMessage('call_sub', callArgs), forwardedProps: { format: 'a2ui' }, context: catalogContext });
  const ops = agent.messages.find((m) => m.role === 'activity').content.a2ui_operations;
  assert.equal(ops[0].createSurface.catalogId, catalogId);
  const surfaceId = ops[0].createSurface.surfaceId;
  const button = ops[1].updateComponents.components.find((c) => c.action?.event);
  const context = { ...button.action.event.context, data: { firstName: 'Ada', country: 'GB' } };
  const userAction = { name: button.action.event.name, surfaceId, sourceComponentId: button.id, timestamp: new Date().toISOString(), context };
  const ok = await runAgent({ forwardedProps: { a2uiAction: { userAction } } });
  assert.deepEqual(types(ok.events), ['RUN_STARTED', 'TOOL_CALL_RESULT', 'RUN_FINISHED']);
  assert.equal(ok.events[1].toolCallId, 'call_sub');
  assert.deepEqual(JSON.parse(ok.events[1].content), { firstName: 'Ada', country: 'GB' });
  const tool = ok.agent.messages.find((m) => m.role === 'tool');
  assert.equal(tool.toolCallId, 'call_sub');

  const bad = await runAgent({ forwardedProps: { a2uiAction: { userAction: { ...userAction, context: { ...context, data: { firstName: 'Ada', country: 'XX' } } } } } });
  assert.deepEqual(types(bad.events), ['RUN_STARTED', 'RUN_FINISHED']);
  const { result } = bad.events[1];
  assert.equal(result.accepted, false);
  assert.equal(result.error.code, 'submission_invalid');
  assert.ok(result.error.payload.errors.some((e) => e.pointer === '/country'), JSON.stringify(result.error));
});

test('HttpAgent: after a reload, the activity message\'s specHash and the typed values render the same form again', async () => {
  const callArgs = args('reload', { generator: 'deterministic' });
  const { agent } = await runAgent({ messages: toolCallMessage('call_reload', callArgs) });
  // What a client restores from MESSAGES_SNAPSHOT: the messages, the activity among them.
  const restored = structuredClone(agent.messages);
  const activity = restored.find((m) => m.role === 'activity');
  assert.equal(activity.activityType, 'genui.jsonforms');
  const { specHash } = activity.content.meta;
  assert.match(specHash, /^[0-9a-f]{64}$/);
  assert.deepEqual(activity.content.initialData, { firstName: 'Ada' });
  const typed = { ...activity.content.initialData, firstName: 'Grace', country: 'US' };
  const render = (format) => fetch(`${BASE}/v1/specs/${specHash}/render?format=${format}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...AUTH },
    body: JSON.stringify({ data: typed, toolCallId: 'call_reload' }),
  });
  // The spec is stored after the run's answer: wait for it (up to 3 s).
  let res = await render('jsonforms');
  for (let i = 0; i < 10 && res.status === 404; i += 1) {
    await new Promise((r) => setTimeout(r, 300));
    res = await render('jsonforms');
  }
  assert.equal(res.status, 200, await res.clone().text());
  const form = await res.json();
  assert.deepEqual(form.initialData, typed);
  assert.equal(form.meta.specHash, specHash);
  assert.equal(form.meta.toolCallId, 'call_reload');
  // The same form as the activity showed, only the values differ.
  assert.deepEqual(form.uiSchema, activity.content.uiSchema);
  assert.deepEqual(form.jsonSchema, activity.content.jsonSchema);
  // In another format too: A2UI's data model carries the typed values.
  const a2ui = await (await render('a2ui')).json();
  const model = a2ui.messages.find((m) => m.updateDataModel).updateDataModel.value;
  assert.equal(model.firstName, 'Grace');
  assert.equal(model.country, 'US');
});

test('HttpAgent: a run without a generateUserInterface call is a 400 naming the place', async () => {
  await assert.rejects(
    runAgent({ messages: [{ id: 'u1', role: 'user', content: 'hello' }] }),
    (error) => error.status === 400 && error.payload?.payload?.pointer === '/messages',
  );
});

/** Reads an SSE response into [{event, data}] (comments skipped). */
async function readSse(res) {
  const text = await res.text();
  return text.split('\n\n').filter((f) => f && !f.startsWith(':')).map((frame) => {
    const lines = frame.split('\n');
    return { event: lines[0].replace(/^event: /, ''), data: JSON.parse(lines[1].replace(/^data: /, '')) };
  });
}

for (const format of ['jsonforms', 'rjsf', 'lmui', 'a2ui', 'react']) {
  test(`plain SSE on /v1/generate (${format}): ui, patch, done; the patched ui is the JSON answer`, async () => {
    const body = args(`sse-${format}`);
    const res = await fetch(`${BASE}/v1/generate?format=${format}`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...AUTH }, body: JSON.stringify(body),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^text\/event-stream/);
    const events = await readSse(res);
    assert.deepEqual(events.map((e) => e.event), ['ui', 'patch', 'done']);
    const ui = jsonpatch.applyPatch(structuredClone(events[0].data), events[1].data, true).newDocument;
    assert.equal(events[2].data.generator, 'model');
    // The JSON endpoint now hits the model's spec: the same form (meta
    // differs only by the cache status and the model run's provenance).
    const json = await generateJson(body, format);
    assert.deepEqual(withoutMeta(ui), withoutMeta(json));
  });
}

test('plain SSE: an error before the stream starts is a plain dgui_error', async () => {
  const res = await fetch(`${BASE}/v1/generate`, {
    method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...AUTH }, body: '{"output": 3}',
  });
  assert.equal(res.status, 400);
  assert.match(res.headers.get('content-type'), /application\/json/);
  assert.equal((await res.json()).type, 'dgui_error');
});
