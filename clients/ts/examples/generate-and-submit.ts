// Generate a form for a tool call, then check the person's answer with the worker.

import { Client, GenuiError, specHashOf } from "@genui-worker/client";

const call = {
  tool: "generateUserInterface",
  toolCallId: "call_123",
  arguments: {
    description: "A form that collects the user's shipping address.",
    data: { firstName: "Ada", city: "London" },
    output: {
      type: "object",
      required: ["firstName", "city", "country"],
      properties: {
        firstName: { type: "string", title: "First Name" },
        city: { type: "string", title: "City" },
        country: { type: "string", enum: ["GB", "US", "DE"] },
      },
    },
  },
};

const client = new Client({ baseUrl: process.env["GENUI_URL"] ?? "http://127.0.0.1:8787" });
const form = await client.generate(call); // JSON Forms: jsonSchema, uiSchema, initialData, meta
try {
  await client.submit(specHashOf(form), { firstName: "Ada", city: "London", country: "FR" });
} catch (refused) {
  if (!(refused instanceof GenuiError)) throw refused; // 422 submission_invalid, each violation by its pointer
  console.log(
    JSON.stringify({
      code: refused.code,
      status: refused.status,
      errors: refused.payload["errors"],
    }),
  );
}
const data = { firstName: "Ada", city: "London", country: "GB" };
const message = await client.submit(specHashOf(form), data, { toolCallId: "call_123" });
console.log(JSON.stringify(message)); // the AG-UI tool message to hand back to the agent
