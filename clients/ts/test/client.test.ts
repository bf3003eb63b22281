// The client against a scripted worker on 127.0.0.1: what it sends, how the
// worker's refusals and garbage become GenuiError, and which requests are retried.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Client, GenuiError, verifyWebhook } from "@genui-worker/client";
import { json, scripted, silent, text } from "./server.js";

const CALL = { tool: "generateUserInterface", arguments: { description: "Pick a size." } };
const ANSWER = { jsonSchema: { type: "object" }, meta: { specHash: "h1" } };
const REFUSAL = {
  type: "dgui_error",
  code: "invalid_schema",
  message: '"strin" is not a type',
  payload: { pointer: "/arguments/output/properties/size/type" },
};

function client(baseUrl: string, extra: object = {}): Client {
  return new Client({ baseUrl, apiKey: "k", retries: 2, backoffMs: 1, timeoutMs: 2000, ...extra });
}

async function refusal(promise: Promise<unknown>): Promise<GenuiError> {
  const error = await promise.then(
    () => assert.fail("expected a GenuiError"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof GenuiError, `not a GenuiError: ${String(error)}`);
  return error;
}

test("generate sends the call, the key and the format", async () => {
  const worker = await scripted(json(200, ANSWER));
  try {
    assert.deepEqual(await client(worker.baseUrl).generate(CALL, { format: "jsonforms" }), ANSWER);
    const [sent] = worker.seen;
    assert.equal(sent?.url, "/v1/generate?format=jsonforms");
    assert.equal(sent?.headers.authorization, "Bearer k");
    assert.equal(sent?.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(sent?.body ?? ""), CALL);
  } finally {
    await worker.close();
  }
});

test("a dgui_error keeps its code, pointer, status and message", async () => {
  const worker = await scripted(json(422, REFUSAL));
  try {
    const error = await refusal(client(worker.baseUrl).generate(CALL));
    assert.deepEqual(
      [error.code, error.status, error.pointer],
      ["invalid_schema", 422, "/arguments/output/properties/size/type"],
    );
    assert.match(error.message, /strin/);
    assert.equal(worker.seen.length, 1, "a 4xx is never retried");
  } finally {
    await worker.close();
  }
});

for (const [name, step, status] of [
  ["non-JSON with a JSON type", text(200, "<html>oops", "application/json"), 200],
  ["a proxy's page", text(200, "<html>a proxy's page</html>", "text/html"), 200],
  ["a 500 in plain text", text(500, "Internal Server Error"), 500],
  ["an error without dgui_error", json(404, { error: "not here" }), 404],
] as const) {
  test(`garbage is bad_answer: ${name}`, async () => {
    const worker = await scripted(step);
    try {
      const error = await refusal(client(worker.baseUrl).submit("h1", {}));
      assert.deepEqual([error.code, error.status], ["bad_answer", status]);
    } finally {
      await worker.close();
    }
  });
}

test("an html page is the answer only for format html", async () => {
  const page = text(200, "<form>…</form>", "text/html");
  const worker = await scripted(page);
  try {
    assert.equal(await client(worker.baseUrl).generate(CALL, { format: "html" }), "<form>…</form>");
    const error = await refusal(client(worker.baseUrl).generate(CALL, { format: "jsonforms" }));
    assert.equal(error.code, "bad_answer");
  } finally {
    await worker.close();
  }
});

test("idempotent calls are retried after a 503, then answered", async () => {
  const down = json(503, { type: "dgui_error", code: "unavailable", message: "busy" });
  for (const call of [
    (c: Client) => c.generate(CALL),
    (c: Client) => c.interrupt({ id: "i", reason: "confirmation" }),
    (c: Client) => c.rerender("h1", { size: "S" }, { format: "rjsf" }),
    (c: Client) => c.tool(),
  ]) {
    const worker = await scripted(down, down, json(200, ANSWER));
    try {
      assert.deepEqual(await call(client(worker.baseUrl)), ANSWER);
      assert.equal(worker.seen.length, 3);
    } finally {
      await worker.close();
    }
  }
});

test("retries stop after `retries` extra sends and give the worker's error", async () => {
  const down = json(502, { type: "dgui_error", code: "upstream", message: "bad gateway" });
  const worker = await scripted(down);
  try {
    const error = await refusal(client(worker.baseUrl, { retries: 1 }).generate(CALL));
    assert.deepEqual([error.code, error.status, worker.seen.length], ["upstream", 502, 2]);
  } finally {
    await worker.close();
  }
});

test("submit, submitInterrupt and webhook are sent once, even after a 503", async () => {
  const down = json(503, { type: "dgui_error", code: "unavailable", message: "busy" });
  for (const call of [
    (c: Client) => c.submit("h1", { size: "S" }, { toolCallId: "call_1" }),
    (c: Client) => c.submitInterrupt("h1", "int-1", "tok", { ok: true }),
    (c: Client) => c.webhook({ description: "x" }, "secret"),
  ]) {
    const worker = await scripted(down, json(200, ANSWER));
    try {
      const error = await refusal(call(client(worker.baseUrl)));
      assert.deepEqual([error.code, error.status, worker.seen.length], ["unavailable", 503, 1]);
    } finally {
      await worker.close();
    }
  }
});

test("submit bodies name the spec, the tool call and the interrupt", async () => {
  const worker = await scripted(json(200, { role: "tool" }));
  try {
    const c = client(worker.baseUrl);
    await c.submit("h1", { size: "S" }, { toolCallId: "call_1" });
    await c.submitInterrupt("h1", "int-1", "tok", { quarter: "Q1" });
    await c.submitInterrupt("h1", "int-1", "tok", undefined, { cancel: true });
    await c.rerender("h1", { size: "M" }, { format: "rjsf", toolCallId: "call_1" });
    const bodies = worker.seen.map((s) => [s.url, JSON.parse(s.body) as unknown]);
    assert.deepEqual(bodies, [
      ["/v1/submit", { specHash: "h1", data: { size: "S" }, toolCallId: "call_1" }],
      [
        "/v1/submit",
        { specHash: "h1", interruptId: "int-1", interruptToken: "tok", data: { quarter: "Q1" } },
      ],
      [
        "/v1/submit",
        { specHash: "h1", interruptId: "int-1", interruptToken: "tok", status: "cancelled" },
      ],
      ["/v1/specs/h1/render?format=rjsf", { data: { size: "M" }, toolCallId: "call_1" }],
    ]);
  } finally {
    await worker.close();
  }
});

test("a worker that is down is unreachable, after the retries", async () => {
  const worker = await scripted(json(200, ANSWER));
  const { baseUrl } = worker;
  await worker.close();
  const started = Date.now();
  const error = await refusal(client(baseUrl).generate(CALL));
  assert.equal(error.code, "unreachable");
  assert.equal(error.status, undefined);
  assert.ok(Date.now() - started < 2000);
});

test("a slow worker times out; the caller's signal aborts", async () => {
  const worker = await scripted(silent);
  try {
    const slow = await refusal(
      client(worker.baseUrl, { timeoutMs: 100, retries: 1 }).generate(CALL),
    );
    assert.equal(slow.code, "timeout");
    assert.equal(worker.seen.length, 2, "a timeout of an idempotent call is retried");
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const aborted = await refusal(client(worker.baseUrl).generate(CALL, { signal: stop.signal }));
    assert.equal(aborted.code, "aborted");
  } finally {
    await worker.close();
  }
});

test("a webhook is signed over the exact body sent, callbackUrl included", async () => {
  const worker = await scripted(json(200, ANSWER));
  try {
    const callbackUrl = "https://agent.example/genui";
    await client(worker.baseUrl).webhook({ description: "x" }, "whsec", { callbackUrl });
    const [sent] = worker.seen;
    assert.deepEqual(JSON.parse(sent?.body ?? ""), { description: "x", callbackUrl });
    const header = sent?.headers["x-genui-signature"];
    await verifyWebhook(typeof header === "string" ? header : "", sent?.body ?? "", "whsec");
  } finally {
    await worker.close();
  }
});
