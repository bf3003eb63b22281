// Streams: answers whole and fresh, patches applied with fast-json-patch, and
// a cut or broken stream an error that never passes a half-applied answer as final.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Client, GenuiError, SseDecoder } from "@genui-worker/client";
import { events, frame, json, scripted, silent } from "./server.js";

const UI = {
  jsonSchema: { type: "object", properties: {} },
  meta: { specHash: "h1", title: "Draft" },
};
const PATCH = [
  { op: "replace", path: "/meta/title", value: "Shirt size" },
  { op: "add", path: "/jsonSchema/properties/size", value: { type: "string" } },
];
const DONE = { generator: "model", cache: "miss", fellBack: false };

async function collect(
  stream: AsyncIterable<unknown>,
): Promise<{ seen: unknown[]; error?: GenuiError }> {
  const seen: unknown[] = [];
  try {
    for await (const answer of stream) seen.push(answer);
  } catch (error) {
    assert.ok(error instanceof GenuiError, `not a GenuiError: ${String(error)}`);
    return { seen, error };
  }
  return { seen };
}

function client(baseUrl: string, timeoutMs = 2000): Client {
  return new Client({ baseUrl, retries: 2, backoffMs: 1, timeoutMs });
}

test("each answer is whole, patched and a fresh object; done ends it", async () => {
  const worker = await scripted(
    events([": heartbeat\n\n", frame("ui", UI), frame("patch", PATCH), frame("done", DONE)]),
  );
  try {
    const stream = client(worker.baseUrl).stream({ description: "x" }, { format: "jsonforms" });
    const seen: unknown[] = [];
    for await (const answer of stream) {
      seen.push(structuredClone(answer));
      (answer as Record<string, any>)["meta"].changedByTheCaller = true; // must not reach the next one
    }
    const patched = structuredClone(UI) as Record<string, any>;
    patched["meta"].title = "Shirt size";
    patched["jsonSchema"].properties.size = { type: "string" };
    assert.deepEqual(seen, [UI, patched]);
    assert.deepEqual(stream.done, DONE);
    assert.equal(worker.seen[0]?.headers.accept, "text/event-stream");
    assert.equal(worker.seen[0]?.url, "/v1/generate?format=jsonforms");
  } finally {
    await worker.close();
  }
});

test("a stream cut between events is stream_cut after the whole answers", async () => {
  const worker = await scripted(events([frame("ui", UI)], true));
  try {
    const { seen, error } = await collect(client(worker.baseUrl).stream({ description: "x" }));
    assert.deepEqual(seen, [UI]);
    assert.equal(error?.code, "stream_cut");
    assert.equal(worker.seen.length, 1, "a stream is never sent twice");
  } finally {
    await worker.close();
  }
});

test("a stream cut in the middle of a patch never shows the half patch", async () => {
  const half = frame("patch", PATCH).slice(0, 40);
  for (const cut of [true, false]) {
    const worker = await scripted(events([frame("ui", UI), half], cut));
    try {
      const { seen, error } = await collect(client(worker.baseUrl).stream({ description: "x" }));
      assert.deepEqual(seen, [UI]);
      assert.equal(error?.code, "stream_cut");
      assert.match(error?.message ?? "", /middle of an event/);
    } finally {
      await worker.close();
    }
  }
});

test("a patch that does not apply is bad_answer, and nothing patched is shown", async () => {
  const bad = [
    { op: "replace", path: "/meta/title", value: "ok" },
    { op: "remove", path: "/nothing/here" },
  ];
  const worker = await scripted(
    events([frame("ui", UI), frame("patch", bad), frame("done", DONE)]),
  );
  try {
    const { seen, error } = await collect(client(worker.baseUrl).stream({ description: "x" }));
    assert.deepEqual(seen, [UI]);
    assert.equal(error?.code, "bad_answer");
  } finally {
    await worker.close();
  }
});

test("an error event is the worker's dgui_error; an event after done is bad_answer", async () => {
  const refusal = {
    type: "dgui_error",
    code: "model_failed",
    message: "no",
    payload: { pointer: "/x" },
  };
  const worker = await scripted(
    events([frame("ui", UI), frame("error", refusal)]),
    events([frame("ui", UI), frame("done", DONE), frame("ui", UI)]),
  );
  try {
    const failed = await collect(client(worker.baseUrl).stream({ description: "x" }));
    assert.deepEqual([failed.error?.code, failed.error?.pointer], ["model_failed", "/x"]);
    const late = await collect(client(worker.baseUrl).stream({ description: "x" }));
    assert.equal(late.error?.code, "bad_answer");
  } finally {
    await worker.close();
  }
});

test("a refused stream is the dgui_error; a non-stream answer is bad_answer", async () => {
  const worker = await scripted(
    json(422, {
      type: "dgui_error",
      code: "invalid_schema",
      message: "m",
      payload: { pointer: "/output" },
    }),
    json(200, UI),
  );
  try {
    const refused = await collect(client(worker.baseUrl).stream({ description: "x" }));
    assert.deepEqual([refused.error?.code, refused.error?.status], ["invalid_schema", 422]);
    const plain = await collect(client(worker.baseUrl).stream({ description: "x" }));
    assert.equal(plain.error?.code, "bad_answer");
  } finally {
    await worker.close();
  }
});

test("a stream that stops sending times out between reads", async () => {
  const worker = await scripted((response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(frame("ui", UI));
  }, silent);
  try {
    const { seen, error } = await collect(client(worker.baseUrl, 150).stream({ description: "x" }));
    assert.deepEqual(seen, [UI]);
    assert.equal(error?.code, "stream_cut");
  } finally {
    await worker.close();
  }
});

test("the SSE decoder joins data lines, skips comments and waits for the blank line", () => {
  const decoder = new SseDecoder();
  assert.deepEqual(decoder.feed(': hi\r\n\r\nevent: ui\ndata: {"a":\ndata: 1}\n'), []);
  assert.equal(decoder.pending, true);
  assert.deepEqual(decoder.feed("\n"), [{ name: "ui", data: '{"a":\n1}' }]);
  assert.equal(decoder.pending, false);
});

test("the timeout is between reads: a stream longer than it but never silent ends whole", async () => {
  const worker = await scripted((response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(frame("ui", UI));
    let beats = 0;
    const timer = setInterval(() => {
      beats += 1;
      if (beats < 6) {
        response.write(": heartbeat\n\n");
        return;
      }
      clearInterval(timer);
      response.end(frame("patch", PATCH) + frame("done", DONE));
    }, 60);
  });
  try {
    const { seen, error } = await collect(client(worker.baseUrl, 200).stream({ description: "x" }));
    assert.equal(error, undefined);
    assert.equal(seen.length, 2);
  } finally {
    await worker.close();
  }
});

test("a caller's abort stops a stream with aborted", async () => {
  const worker = await scripted((response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(frame("ui", UI));
  });
  try {
    const stop = new AbortController();
    const stream = client(worker.baseUrl).stream({ description: "x" }, { signal: stop.signal });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const answer of stream) {
        seen.push(answer);
        stop.abort();
      }
    })().catch((e: unknown) => e);
    assert.deepEqual(seen, [UI]);
    assert.ok(error instanceof GenuiError && error.code === "aborted", String(error));
  } finally {
    await worker.close();
  }
});

test("a stream whose worker never answers times out", async () => {
  const worker = await scripted(silent);
  try {
    const { seen, error } = await collect(client(worker.baseUrl, 150).stream({ description: "x" }));
    assert.deepEqual([seen, error?.code], [[], "timeout"]);
  } finally {
    await worker.close();
  }
});
