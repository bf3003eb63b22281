// The generated types and tool definition are what scripts/generate.mjs makes
// from the repository's contracts now: the package cannot drift from them.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { toolDefinition } from "@genui-worker/client";

const PACKAGE = new URL("../../", import.meta.url);

test("src/generated is what the contracts generate today", async () => {
  const { generated } = (await import(new URL("scripts/generate.mjs", PACKAGE).href)) as {
    generated: () => Promise<Record<string, string>>;
  };
  const files = await generated();
  assert.ok(Object.keys(files).length > 2);
  for (const [path, text] of Object.entries(files)) {
    const committed = readFileSync(new URL(path, PACKAGE), "utf8");
    assert.equal(committed, text, `${path} is stale: run npm run generate`);
  }
});

test("the shipped tool definition is the worker's, a fresh copy each call", () => {
  const tool = toolDefinition();
  assert.equal(tool.name, "generateUserInterface");
  assert.deepEqual((tool.parameters as { required: string[] }).required, ["description"]);
  (tool.parameters as Record<string, unknown>)["changed"] = true;
  assert.equal("changed" in toolDefinition().parameters, false);
});
