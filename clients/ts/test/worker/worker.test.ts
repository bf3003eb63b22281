// Against a running worker (GENUI_URL; its WEBHOOK_SECRET in
// GENUI_WEBHOOK_SECRET, default "examples-test-secret"): every example of
// docs/clients.md's TypeScript section run as a program, and what the client
// sees of the real answers. Run by tests/harness/e2e_examples.rs.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { HttpAgent } from "@ag-ui/client";
import { Client, GenuiError, toolDefinition } from "@genui-worker/client";
import { runGenerateUserInterface } from "@genui-worker/client/agui";

const BASE = process.env["GENUI_URL"] ?? "";
const SECRET = process.env["GENUI_WEBHOOK_SECRET"] ?? "examples-test-secret";
const EXAMPLES = new URL("../../examples/", import.meta.url);
const SHIRT = {
  description: "Choose a T-shirt size.",
  output: { type: "object", properties: { size: { type: "string", enum: ["S", "M", "L"] } } },
};

/** Runs examples/<name> (compiled) as a program; the JSON documents it printed, one a line. */
function runExample(name: string): any[] {
  assert.ok(BASE, "set GENUI_URL to a running genui-worker");
  const out = execFileSync(process.execPath, [new URL(name, EXAMPLES).pathname], {
    env: { ...process.env, GENUI_URL: BASE, WEBHOOK_SECRET: SECRET },
    encoding: "utf8",
    timeout: 120_000,
  });
  return out
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

test("the shipped tool definition is the one the worker serves", async () => {
  assert.deepEqual(await new Client({ baseUrl: BASE }).tool(), toolDefinition());
});

test("a refused call carries the worker's code, pointer and status", async () => {
  const call = {
    description: "Pick a size.",
    output: { type: "object", properties: { size: { type: "strin" } } },
  };
  const error = await new Client({ baseUrl: BASE }).generate(call).catch((e: unknown) => e);
  assert.ok(error instanceof GenuiError);
  assert.deepEqual([error.code, error.status], ["invalid_schema", 422]);
  assert.match(error.pointer ?? "", /\/properties\/size\/type$/);
});

test("generate and submit: a refusal by pointer, then the tool message", () => {
  const [refusal, message] = runExample("generate-and-submit.js");
  assert.deepEqual([refusal.code, refusal.status], ["submission_invalid", 422]);
  assert.deepEqual(
    refusal.errors.map((e: { pointer: string }) => e.pointer),
    ["/country"],
  );
  assert.equal(message.role, "tool");
  assert.equal(message.toolCallId, "call_123");
  assert.deepEqual(JSON.parse(message.content), {
    firstName: "Ada",
    city: "London",
    country: "GB",
  });
});

test("the stream ends on the answer generate gives", async () => {
  const lines = runExample("stream.js");
  const done = lines.pop();
  assert.ok(lines.length > 0 && done.done.generator === lines.at(-1).generator);
  const client = new Client({ baseUrl: BASE });
  let last: any;
  for await (const answer of client.stream(SHIRT)) last = answer;
  const whole: any = await client.generate(SHIRT);
  delete last.meta.cache;
  delete whole.meta.cache;
  assert.deepEqual(last, whole);
  assert.equal(lines.at(-1).specHash, whole.meta.specHash);
});

test("an interrupt answered through the worker resumes with a verified entry", () => {
  const [entry] = runExample("interrupt.js");
  assert.equal(entry.status, "resolved");
  assert.deepEqual(entry.payload, { quarter: "Q1", year: 2026 });
});

test("a cached form renders again in another format with the data typed so far", () => {
  const [seen] = runExample("rerender.js");
  assert.equal(seen.rerendered.type, "dgui_form");
  assert.equal(seen.rerendered.metadata.specHash, seen.specHash);
  assert.deepEqual(seen.rerendered.formData, { size: "M" });
});

test("the docs show each TypeScript example byte for byte", () => {
  const page = readFileSync(new URL("../../../../../docs/clients.md", import.meta.url), "utf8");
  const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 4);
  for (const name of ["generate-and-submit.ts", "stream.ts", "interrupt.ts", "rerender.ts"]) {
    const source = readFileSync(new URL(`../../../examples/${name}`, import.meta.url), "utf8");
    assert.ok(blocks.includes(source), `docs/clients.md does not show examples/${name}`);
  }
});

test("an AG-UI run on /v1/agent gives the form; its submission gives the tool message", async () => {
  const agent = new HttpAgent({ url: `${BASE}/v1/agent` });
  const client = new Client({ baseUrl: BASE });
  const form = await runGenerateUserInterface(agent, client, {
    toolCallId: "call_agui",
    arguments: SHIRT,
  });
  assert.equal(form.activityType, "genui.jsonforms");
  assert.equal(form.specHash.length, 64);
  const refused = await form.submit({ size: "XL" }).catch((e: unknown) => e);
  assert.ok(refused instanceof GenuiError && refused.code === "submission_invalid");
  const message: any = await form.submit({ size: "S" });
  assert.deepEqual(
    [message.role, message.toolCallId, JSON.parse(message.content)],
    ["tool", "call_agui", { size: "S" }],
  );
});
