// Answer an AG-UI interrupt through the worker and verify the signed resume entry.

import { Client, specHashOf, verifyResumeEntry } from "@genui-worker/client";

const responseSchema = {
  type: "object",
  required: ["quarter", "year"],
  properties: {
    quarter: { type: "string", enum: ["Q1", "Q2", "Q3", "Q4"] },
    year: { type: "integer" },
  },
};
const interrupt = {
  id: "int-form",
  reason: "input_required",
  message: "Please provide the quarterly filing details.",
  responseSchema,
};
const secret = process.env["WEBHOOK_SECRET"] ?? ""; // the worker's; the agent shares it

const client = new Client({ baseUrl: process.env["GENUI_URL"] ?? "http://127.0.0.1:8787" });
const form = (await client.interrupt(interrupt, { format: "jsonforms" })) as {
  meta: { specHash: string; interrupt: { token: string } };
};
const token = form.meta.interrupt.token;
const entry = await client.submitInterrupt(specHashOf(form), interrupt.id, token, {
  quarter: "Q1",
  year: 2026,
});
// The agent checks the entry against the schema IT issued, never one taken from the entry.
await verifyResumeEntry(entry, secret, {
  interruptId: interrupt.id,
  responseSchema,
  specHash: specHashOf(form),
});
console.log(JSON.stringify(entry)); // put it in resume[] of the agent's next run
