/**
 * Every signature the worker's users make or check, with WebCrypto
 * (`crypto.subtle`: browsers, Workers, Node 20+).
 *
 * All are HMAC-SHA256 under the worker's `WEBHOOK_SECRET`, the signed string
 * starting with a purpose label so a signature made for one use never
 * verifies for another (docs/api.md#webhooks, docs/interrupts.md):
 *
 * | purpose | signed string | who signs |
 * |---|---|---|
 * | `genui-webhook` | `genui-webhook.<t>.<raw body>` | the agent, for `POST /v1/webhook` |
 * | `genui-callback` | `genui-callback.<t>.<raw body>` | the worker, for its POST to `callbackUrl` |
 * | `genui-resume` | `genui-resume.<t>.<specHash>.<status>.<interruptId as JSON>.<schemaDigest>.<JCS payload or nothing>` | the worker, in a resume entry |
 *
 * Headers are `t=<unix seconds>,v1=<hex>` (several `v1` during a secret
 * rotation); a webhook or callback signature is good from 30 s before `t` to
 * 300 s after it. Every check fails closed: it resolves only when the
 * signature verifies and rejects with `GenuiError("invalid_signature")` otherwise.
 */

import canonicalize from "canonicalize";
import { GenuiError, isRecord } from "./errors.js";

export const SIGNATURE_HEADER = "X-Genui-Signature";
export const WEBHOOK = "genui-webhook";
export const CALLBACK = "genui-callback";
export const RESUME = "genui-resume";
/** How old a webhook or callback signature may be, and how far ahead of the clock. */
export const TOLERANCE_SECONDS = 300;
export const MAX_CLOCK_SKEW_SECONDS = 30;
/** The schema of a confirmation interrupt's answer when the agent gave none (docs/interrupts.md). */
export const APPROVAL_SCHEMA = {
  type: "object",
  properties: { approved: { type: "boolean", title: "Approve" } },
  required: ["approved"],
  additionalProperties: false,
} as const;

const encoder = new TextEncoder();

function refuse(why: string): GenuiError {
  return new GenuiError("invalid_signature", why);
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Lowercase hex HMAC-SHA256 of `signed` under `secret`. */
export async function hmacHex(secret: string, signed: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return hex(await crypto.subtle.sign("HMAC", key, encoder.encode(signed)));
}

/** Lowercase hex SHA-256 of a text's UTF-8 bytes. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Compares two strings in time that depends only on their lengths. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` as its time and signatures; rejects if malformed. */
export function parseHeader(header: unknown): { t: number; v1: string[] } {
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of typeof header === "string" ? header.split(",") : []) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && /^[0-9]{1,12}$/.test(value)) t = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) v1.push(value);
  }
  if (t === undefined || v1.length === 0) {
    const shown = JSON.stringify(String(header).slice(0, 80));
    throw refuse(`the signature ${shown} is not t=<unix seconds>,v1=<hex>`);
  }
  return { t, v1 };
}

/** The `X-Genui-Signature` value for a request to `/v1/webhook` with this raw body. */
export async function signWebhook(
  secret: string,
  body: string,
  timestamp?: number,
): Promise<string> {
  const t = timestamp ?? Math.floor(Date.now() / 1000);
  return `t=${t},v1=${await hmacHex(secret, `${WEBHOOK}.${t}.${body}`)}`;
}

/** Resolves only if the worker signed this callback's raw body within the window. */
export async function verifyCallback(
  header: string | null | undefined,
  body: string,
  secret: string,
  now?: number,
): Promise<void> {
  await verifyTimed(CALLBACK, header, body, secret, now);
}

/** What the worker checks on `/v1/webhook` (for a relay that receives agents' calls). */
export async function verifyWebhook(
  header: string | null | undefined,
  body: string,
  secret: string,
  now?: number,
): Promise<void> {
  await verifyTimed(WEBHOOK, header, body, secret, now);
}

async function verifyTimed(
  purpose: string,
  header: string | null | undefined,
  body: string,
  secret: string,
  now: number | undefined,
): Promise<void> {
  if (!secret) throw refuse("no secret to verify with");
  const { t, v1 } = parseHeader(header);
  const clock = now ?? Date.now() / 1000;
  if (clock - t > TOLERANCE_SECONDS || t - clock > MAX_CLOCK_SKEW_SECONDS) {
    throw refuse(`the signature's time ${t} is outside the ${TOLERANCE_SECONDS} s window`);
  }
  await matchAny(secret, `${purpose}.${t}.${body}`, v1, `no v1 signature matches under ${purpose}`);
}

async function matchAny(secret: string, signed: string, given: string[], why: string) {
  const expected = await hmacHex(secret, signed);
  if (!given.some((candidate) => sameText(expected, candidate))) throw refuse(why);
}

/** RFC 8785 (JCS) text of a JSON value; rejects what JCS cannot write (NaN, undefined). */
function jcs(value: unknown, what: string): string {
  try {
    const text = canonicalize(value);
    if (typeof text === "string") return text;
  } catch {
    // fall through: refused below
  }
  throw refuse(`${what} has no canonical JSON form`);
}

/** Lowercase hex SHA-256 of the JCS text of the response schema the agent issued. */
export async function schemaDigest(responseSchema: unknown): Promise<string> {
  return sha256Hex(jcs(responseSchema, "the response schema"));
}

/** A resume entry as the worker answers it (`POST /v1/submit` for an interrupt). */
export interface SignedResumeEntry {
  interruptId: string;
  status: "resolved" | "cancelled";
  payload?: unknown;
  metadata: { genui: { specHash: string; signature: string } };
}

/** The string the worker signs for a resume entry (docs/interrupts.md). */
export function resumeSignedString(
  entry: Pick<SignedResumeEntry, "interruptId" | "status" | "payload">,
  specHash: string,
  t: number,
  digest: string,
): string {
  // A cancel binds no schema and no payload: both parts are empty.
  const resolved = entry.status === "resolved";
  const payload = resolved ? jcs(entry.payload, "the payload") : "";
  const id = JSON.stringify(entry.interruptId);
  return `${RESUME}.${t}.${specHash}.${entry.status}.${id}.${resolved ? digest : ""}.${payload}`;
}

/** What the agent knows of the interrupt it issued: its id, the schema (or its digest), maybe the spec. */
export interface ResumeExpectation {
  /** The id of the interrupt the agent issued: an entry answering another is refused. */
  interruptId: string;
  /** The `responseSchema` the agent issued; `APPROVAL_SCHEMA` for a confirmation without one. */
  responseSchema?: unknown;
  /** Or its digest, when the agent kept only that. */
  schemaDigest?: string;
  /** The spec the form was made from, if the agent kept it. */
  specHash?: string;
  /** The interrupt's `expiresAt` (RFC 3339): a resolved entry signed at or after it is refused. */
  expiresAt?: string;
}

/**
 * Resolves only if the worker signed this exact entry for the schema the
 * agent issued (taken from `expected`, never from the entry). There is no
 * time window: the interrupt's own `expiresAt` bounds the answer.
 */
export async function verifyResumeEntry(
  entry: unknown,
  secret: string,
  expected: ResumeExpectation,
): Promise<void> {
  if (!secret) throw refuse("no secret to verify with");
  const signed = readResumeEntry(entry);
  if (signed.interruptId !== expected.interruptId) {
    throw refuse(
      `resume entry ${JSON.stringify(signed.interruptId)} answers another interrupt than ${JSON.stringify(expected.interruptId)}`,
    );
  }
  const digest = signed.status === "resolved" ? await expectedDigest(expected) : "";
  const { specHash, signature } = signed.metadata.genui;
  if (expected.specHash !== undefined && !sameText(expected.specHash, specHash)) {
    throw refuse(`resume entry ${JSON.stringify(signed.interruptId)} answers another form`);
  }
  const { t, v1 } = parseHeader(signature);
  const text = resumeSignedString(signed, specHash, t, digest);
  const why = `resume entry ${JSON.stringify(signed.interruptId)}: the signature does not match`;
  await matchAny(secret, text, v1, why);
  if (signed.status === "resolved" && expected.expiresAt !== undefined) {
    const deadline = Date.parse(expected.expiresAt) / 1000;
    if (!Number.isFinite(deadline)) throw refuse("the expected expiresAt is not a date");
    if (t >= deadline) {
      throw refuse(`resume entry ${JSON.stringify(signed.interruptId)} was signed after expiresAt`);
    }
  }
}

async function expectedDigest(expected: ResumeExpectation): Promise<string> {
  if (expected.schemaDigest !== undefined) {
    if (!/^[0-9a-f]{64}$/.test(expected.schemaDigest)) {
      throw refuse("the expected schemaDigest is not 64 lowercase hex digits");
    }
    return expected.schemaDigest;
  }
  if (!isRecord(expected.responseSchema)) {
    throw refuse("no expected responseSchema (or schemaDigest) to verify the entry against");
  }
  return schemaDigest(expected.responseSchema);
}

/** The entry's signed parts, checked for shape; anything else is refused. */
function readResumeEntry(entry: unknown): SignedResumeEntry {
  const genui = isRecord(entry) && isRecord(entry["metadata"]) ? entry["metadata"]["genui"] : null;
  if (!isRecord(entry) || !isRecord(genui)) throw refuse("the resume entry is not signed");
  const { interruptId, status } = entry;
  const { specHash, signature } = genui;
  if (typeof specHash !== "string" || typeof signature !== "string") {
    throw refuse("the resume entry has no metadata.genui.specHash and signature");
  }
  if (typeof interruptId !== "string" || (status !== "resolved" && status !== "cancelled")) {
    throw refuse("the resume entry has no string interruptId or no status resolved/cancelled");
  }
  if ((status === "resolved") !== "payload" in entry) {
    throw refuse(
      `a ${status} resume entry ${status === "resolved" ? "without" : "with"} a payload`,
    );
  }
  return {
    interruptId,
    status,
    payload: entry["payload"],
    metadata: { genui: { specHash, signature } },
  };
}
