// Stream a form: each item is a whole answer, the model's patches already applied.

import { Client } from "@genui-worker/client";

const call = {
  description: "Choose a T-shirt size.",
  output: { type: "object", properties: { size: { type: "string", enum: ["S", "M", "L"] } } },
};

const client = new Client({ baseUrl: process.env["GENUI_URL"] ?? "http://127.0.0.1:8787" });
const stream = client.stream(call, { format: "jsonforms" });
for await (const answer of stream) {
  // render each one; a cut stream throws GenuiError("stream_cut")
  const meta = (answer as { meta: { specHash: string; generator: string } }).meta;
  console.log(JSON.stringify({ specHash: meta.specHash, generator: meta.generator }));
}
console.log(JSON.stringify({ done: stream.done }));
