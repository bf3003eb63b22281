// An operator's own `http` generator for genui-worker (docs/operator.md, "http generators").
// Run: WEBHOOK_SECRET=... node examples/http-generator.mjs [port]
// It checks the worker's signature, then answers a plan: required fields
// first, the optional ones in a section of their own. The worker proves it.
import { createServer } from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";

const secret = process.env.WEBHOOK_SECRET ?? "";

function signed(header = "", body) {
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const mac = createHmac("sha256", secret).update(`genui-generator.${t}.${body}`).digest();
  return [...header.matchAll(/v1=([0-9a-f]{64})/g)].some(([, hex]) => timingSafeEqual(mac, Buffer.from(hex, "hex")));
}

function plan({ description, fields }) {
  const section = (label, list) => ({ label, layout: "vertical", fields: list.map((f) => f.pointer) });
  const required = fields.filter((f) => f.required), optional = fields.filter((f) => !f.required);
  const sections = [section("Required", required), section("Optional", optional)].filter((s) => s.fields.length);
  return { title: description.split(/[.!?]/)[0].slice(0, 60) || null, steps: false, sections, overrides: [] };
}

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString();
  const ok = req.method === "POST" && signed(req.headers["x-genui-signature"], body);
  res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
  res.end(JSON.stringify(ok ? plan(JSON.parse(body)) : { error: "bad signature" }));
});
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => console.log(`listening on ${server.address().port}`));
