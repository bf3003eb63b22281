// The bindings without a browser: the tool's Standard Schema read by
// CopilotKit's own converter, the renderer chosen by an answer's shape, and
// an RJSF answer rendered to HTML by GenuiForm.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { schemaToJsonSchema } from "@copilotkit/shared";
import { Client, toolDefinition, toolParameters } from "@genui-worker/client";
import { GenuiForm, rendererOf } from "@genui-worker/client/react";

const RJSF = {
  type: "dgui_form",
  schema: {
    type: "object",
    properties: { size: { type: "string", title: "Size", enum: ["S", "M"] } },
  },
  formData: { size: "M" },
  metadata: { specHash: "h1" },
};
const JSONFORMS = {
  jsonSchema: { type: "object" },
  uiSchema: { type: "VerticalLayout", elements: [] },
};

test("CopilotKit offers the agent the worker's parameters word for word", () => {
  assert.deepEqual(schemaToJsonSchema(toolParameters()), toolDefinition().parameters);
  const check = toolParameters()["~standard"].validate;
  assert.ok("value" in check({ description: "A form." }));
  assert.ok("issues" in check({ output: {} }));
});

test("the renderer is chosen by the answer's shape", () => {
  assert.equal(rendererOf(JSONFORMS), "jsonforms");
  assert.equal(rendererOf(RJSF), "rjsf");
  assert.equal(rendererOf({ messages: [] }), undefined);
  assert.equal(rendererOf("<form>"), undefined);
});

test("GenuiForm renders an RJSF answer with its data, and refuses other shapes", () => {
  const client = new Client({ baseUrl: "http://127.0.0.1:9" });
  const html = renderToStaticMarkup(
    createElement(GenuiForm, { client, answer: RJSF, respond: () => {} }),
  );
  assert.match(html, /<select[^>]*id="root_size"/);
  assert.equal(html.match(/<form/g)?.length, 1, "one form, not RJSF's inside another");
  assert.match(html, /<option[^>]*selected=""[^>]*>M<\/option>|<option[^>]*value="1"[^>]*selected/);
  const other = renderToStaticMarkup(
    createElement(GenuiForm, { client, answer: { messages: [] }, respond: () => {} }),
  );
  assert.match(other, /not a JSON Forms or RJSF form/);
});
