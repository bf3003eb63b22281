// Render a cached form again, in another format, with the values typed so far.

import { Client, specHashOf } from "@genui-worker/client";

const call = {
  description: "Choose a T-shirt size.",
  output: { type: "object", properties: { size: { type: "string", enum: ["S", "M", "L"] } } },
};

const client = new Client({ baseUrl: process.env["GENUI_URL"] ?? "http://127.0.0.1:8787" });
const form = await client.generate(call, { format: "jsonforms" });
const again = await client.rerender(specHashOf(form), { size: "M" }, { format: "rjsf" });
console.log(JSON.stringify({ specHash: specHashOf(form), rerendered: again }));
