// Talks to the worker that serves this page (same origin, so no CORS and
// every response header is readable). Each call returns a record the
// provenance table shows: what was asked, the status, the body, the
// worker's provenance headers and the round trip measured here.

/** POSTs JSON to `path`; never throws for HTTP errors, only for no answer. */
export async function post(path, body, { apiKey, label } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const t0 = performance.now();
  let response;
  try {
    response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (e) {
    throw new Error(`no answer from the worker for POST ${path}: ${e.message}`);
  }
  const text = await response.text();
  const ms = performance.now() - t0;
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const h = (name) => response.headers.get(name) ?? undefined;
  return {
    label: label ?? path,
    path,
    status: response.status,
    ok: response.ok,
    body: json ?? text,
    ms,
    headers: {
      cache: h('x-genui-cache'),
      generator: h('x-genui-generator'),
      requestId: h('x-request-id'),
      serverTiming: h('server-timing'),
    },
  };
}

/** Whether a body is the worker's error envelope. */
export const isDguiError = (body) => body && typeof body === 'object' && body.type === 'dgui_error';

/**
 * The request body the playground sends: the pasted JSON with the chosen
 * generator added at the top level (an event array is wrapped as
 * {"events": [...]}, the other accepted form, so it can carry the option).
 */
export function generateBody(parsed, generator) {
  const base = Array.isArray(parsed) ? { events: parsed } : { ...parsed };
  if (generator && generator !== 'auto') base.generator = generator;
  return base;
}

/** POST /v1/generate in one format. */
export function generate(parsed, { format, generator, apiKey }) {
  return post(`/v1/generate?format=${encodeURIComponent(format)}`, generateBody(parsed, generator), { apiKey, label: `generate ${format}` });
}

/** POST /v1/submit as a DGUI dgui_response. */
export function submit({ specHash, toolCallId, data }, { apiKey, label }) {
  const body = { type: 'dgui_response', specHash, data };
  if (toolCallId) body.toolCallId = toolCallId;
  return post('/v1/submit', body, { apiKey, label });
}

/** POST /v1/submit with an A2UI surface's client message, as its renderer fired it. */
export function submitA2ui(message, { apiKey, label }) {
  return post('/v1/submit', message, { apiKey, label });
}
