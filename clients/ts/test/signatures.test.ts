// Signatures: the resume vectors of docs/interrupts.md (read from the page, so
// the test follows it), an entry signed here with node:crypto by the documented
// rule, webhook signing, callback checks, and every check failing closed.

import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  APPROVAL_SCHEMA,
  GenuiError,
  resumeSignedString,
  schemaDigest,
  signWebhook,
  verifyCallback,
  verifyResumeEntry,
  verifyWebhook,
} from "@genui-worker/client";

const SECRET = "examples-test-secret";
const NOW = 1_795_564_800;
const PAGE = new URL("../../../../docs/interrupts.md", import.meta.url);

type Vector = Record<string, string>;

/** Each ```resume-vector block of the page, as its `key: value` lines ("(none)": absent). */
function resumeVectors(): Vector[] {
  const text = readFileSync(PAGE, "utf8");
  return [...text.matchAll(/```resume-vector\n([\s\S]*?)```/g)].map((block) =>
    Object.fromEntries(
      (block[1] ?? "")
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)])
        .filter(([key, value]) => (key !== "payload" ? value !== "(none)" : true)),
    ),
  );
}

function entryOf(vector: Vector): Record<string, any> {
  const entry: Record<string, any> = {
    interruptId: vector["interruptId"],
    status: vector["status"],
    metadata: { genui: { specHash: vector["specHash"], signature: vector["signature"] } },
  };
  if (vector["payload"] !== "(none)") entry["payload"] = JSON.parse(vector["payload"] ?? "");
  return entry;
}

/** What the agent issued, as the vector states it: the schema, or only its digest. */
function expectationOf(vector: Vector) {
  const interruptId = vector["interruptId"] ?? "";
  if (vector["responseSchema"]) {
    return { interruptId, responseSchema: JSON.parse(vector["responseSchema"]) };
  }
  return { interruptId, schemaDigest: vector["schemaDigest"] ?? "" };
}

async function refused(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => assert.fail("expected invalid_signature"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof GenuiError && error.code === "invalid_signature", String(error));
}

test("the docs' resume vectors sign the documented string and verify", async () => {
  const vectors = resumeVectors();
  assert.deepEqual(
    vectors.map((v) => v["status"]),
    ["resolved", "resolved", "cancelled"],
  );
  for (const vector of vectors) {
    const issued = vector["responseSchema"];
    const named = vector["schemaDigest"];
    assert.ok(
      named || issued || vector["status"] === "cancelled",
      "docs/interrupts.md: a resolved resume vector names no schemaDigest or responseSchema",
    );
    const digest = issued ? await schemaDigest(JSON.parse(issued)) : (named ?? "");
    if (issued && named)
      assert.equal(digest, named, "the vector's schemaDigest is not its schema's");
    const entry = entryOf(vector);
    const specHash = vector["specHash"] ?? "";
    const signed = resumeSignedString(entry as any, specHash, Number(vector["t"]), digest);
    assert.equal(signed, vector["signed"]);
    const expected = expectationOf(vector);
    await verifyResumeEntry(entry, vector["secret"] ?? "", { ...expected, specHash });
    await refused(verifyResumeEntry(entry, "another", expected));
  }
});

// An entry signed here by the documented rule with node:crypto, independently of WebCrypto.
const SCHEMA = {
  type: "object",
  required: ["quarter"],
  properties: { quarter: { type: "string" } },
};
const SPEC = "5b0e3c8f8a1d4e6b9c2f7a0d3e5b8c1f4a7d0e3b6c9f2a5d8e1b4c7f0a3d6e9b";
// JCS by hand for these flat values: keys sorted, compact.
const SCHEMA_JCS =
  '{"properties":{"quarter":{"type":"string"}},"required":["quarter"],"type":"object"}';

function signedHere(
  status: string,
  payloadJcs: string,
  schemaJcs = SCHEMA_JCS,
  id = "int.form",
): string {
  // A cancel binds no schema: its digest part is empty.
  const digest = status === "resolved" ? createHash("sha256").update(schemaJcs).digest("hex") : "";
  const text = `genui-resume.${NOW}.${SPEC}.${status}.${JSON.stringify(id)}.${digest}.${payloadJcs}`;
  return `t=${NOW},v1=${createHmac("sha256", SECRET).update(text).digest("hex")}`;
}

function entry(status: "resolved" | "cancelled", payload?: unknown, signature?: string) {
  const e: Record<string, any> = {
    interruptId: "int.form",
    status,
    metadata: { genui: { specHash: SPEC, signature: signature ?? "" } },
  };
  if (payload !== undefined) e["payload"] = payload;
  return e;
}

test("a resolved entry verifies with its payload in JCS, whatever its key order", async () => {
  const signature = signedHere("resolved", '{"quarter":"Q1","year":2026}');
  await verifyResumeEntry(entry("resolved", { year: 2026, quarter: "Q1" }, signature), SECRET, {
    interruptId: "int.form",
    responseSchema: SCHEMA,
    specHash: SPEC,
  });
  const digest = createHash("sha256").update(SCHEMA_JCS).digest("hex");
  await verifyResumeEntry(entry("resolved", { quarter: "Q1", year: 2026 }, signature), SECRET, {
    interruptId: "int.form",
    schemaDigest: digest,
  });
});

test("a cancelled entry and a confirmation's approval schema verify", async () => {
  const cancel = entry("cancelled", undefined, signedHere("cancelled", ""));
  await verifyResumeEntry(cancel, SECRET, { interruptId: "int.form", responseSchema: SCHEMA });
  const approvalJcs =
    '{"additionalProperties":false,"properties":{"approved":{"title":"Approve","type":"boolean"}},"required":["approved"],"type":"object"}';
  const approved = entry(
    "resolved",
    { approved: false },
    signedHere("resolved", '{"approved":false}', approvalJcs),
  );
  await verifyResumeEntry(approved, SECRET, {
    interruptId: "int.form",
    responseSchema: APPROVAL_SCHEMA,
  });
});

test("a resolved entry signed at or after the interrupt's expiresAt is refused", async () => {
  const signature = signedHere("resolved", '{"quarter":"Q1"}');
  const good = entry("resolved", { quarter: "Q1" }, signature);
  const before = new Date((NOW + 60) * 1000).toISOString();
  await verifyResumeEntry(good, SECRET, {
    interruptId: "int.form",
    responseSchema: SCHEMA,
    expiresAt: before,
  });
  const at = new Date(NOW * 1000).toISOString();
  await refused(
    verifyResumeEntry(good, SECRET, {
      interruptId: "int.form",
      responseSchema: SCHEMA,
      expiresAt: at,
    }),
  );
  await refused(
    verifyResumeEntry(good, SECRET, {
      interruptId: "int.form",
      responseSchema: SCHEMA,
      expiresAt: "soon",
    }),
  );
});

test("APPROVAL_SCHEMA is the approval schema docs/interrupts.md publishes", () => {
  const text = readFileSync(PAGE, "utf8");
  const published = /```approval-schema\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
  assert.deepEqual(JSON.parse(published), APPROVAL_SCHEMA);
});

test("every change to a resume entry, or to what the agent expects, is refused", async () => {
  const good = () =>
    entry("resolved", { quarter: "Q1" }, signedHere("resolved", '{"quarter":"Q1"}'));
  const expected = { interruptId: "int.form", responseSchema: SCHEMA };
  await verifyResumeEntry(good(), SECRET, expected);
  const tampers: Array<(e: Record<string, any>) => void> = [
    (e) => (e["status"] = "cancelled"),
    (e) => (e["interruptId"] = "int.formx"),
    (e) => (e["payload"] = { quarter: "Q2" }),
    (e) => delete e["payload"],
    (e) => (e["metadata"].genui.specHash = "0".repeat(64)),
    (e) => (e["metadata"].genui.signature = `t=${NOW}`),
    (e) => (e["metadata"].genui.signature = "garbage"),
    (e) => delete e["metadata"].genui.signature,
    (e) => delete e["metadata"],
    (e) => (e["metadata"] = null),
    (e) => (e["interruptId"] = 7),
  ];
  for (const tamper of tampers) {
    const e = good();
    tamper(e);
    await refused(verifyResumeEntry(e, SECRET, expected));
  }
  const otherSchema = { ...SCHEMA, required: [] };
  for (const [secret, expectation] of [
    ["another", expected],
    ["", expected],
    [SECRET, { interruptId: "int.form", responseSchema: otherSchema }],
    [SECRET, { interruptId: "int.form", schemaDigest: "f".repeat(64) }],
    [SECRET, { interruptId: "int.form", schemaDigest: "not hex" }],
    [SECRET, { interruptId: "int.form" }],
    [SECRET, { ...expected, interruptId: "int.other" }],
    [SECRET, { ...expected, specHash: "f".repeat(64) }],
  ] as const) {
    await refused(verifyResumeEntry(good(), secret, expectation));
  }
  await refused(verifyResumeEntry("not an entry", SECRET, expected));
  await refused(verifyResumeEntry(null, SECRET, expected));
});

test("webhook signing signs the documented bytes", async () => {
  const body = '{"tool":"generateUserInterface"}';
  const header = await signWebhook(SECRET, body, NOW);
  const mac = createHmac("sha256", SECRET).update(`genui-webhook.${NOW}.${body}`).digest("hex");
  assert.equal(header, `t=${NOW},v1=${mac}`);
  await verifyWebhook(header, body, SECRET, NOW + 299);
});

function callbackHeader(body: string, t = NOW, secret = SECRET): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`genui-callback.${t}.${body}`).digest("hex")}`;
}

test("a callback verifies in its window and with a rotated key", async () => {
  const body = '{"meta":{"specHash":"abc"}}';
  for (const now of [NOW, NOW + 300, NOW - 30])
    await verifyCallback(callbackHeader(body), body, SECRET, now);
  const rotated = `t=${NOW},v1=${"0".repeat(64)},${callbackHeader(body).split(",")[1]}`;
  await verifyCallback(rotated, body, SECRET, NOW);
});

test("a bad callback is refused", async () => {
  const good = callbackHeader("{}");
  const webhook = await signWebhook(SECRET, "{}", NOW);
  for (const [header, body, now] of [
    [good, "{}x", NOW],
    [good, "{}", NOW + 301],
    [good, "{}", NOW - 31],
    [webhook, "{}", NOW],
    ["t=abc,v1=00", "{}", NOW],
    ["", "{}", NOW],
    [null, "{}", NOW],
    ["v1=00", "{}", NOW],
    [`t=${NOW}`, "{}", NOW],
    [`t=-${NOW},v1=${"0".repeat(64)}`, "{}", NOW],
  ] as const) {
    await refused(verifyCallback(header, body, SECRET, now));
  }
  await refused(verifyCallback(callbackHeader("{}", NOW, ""), "{}", "", NOW));
});
