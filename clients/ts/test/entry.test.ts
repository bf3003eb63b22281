// The main entry imports no renderer or framework: everything reachable from
// dist/index.js is the package's own modules, fast-json-patch and canonicalize.
// The subpath bindings exist and name their optional peers.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const DIST = new URL("../../dist/", import.meta.url);
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|(?:^|\n)\s*import\s+"([^"]+)"/g;

function importsOf(file: URL): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? "");
}

/** Every bare package reached from one dist module, through its relative imports. */
function packagesReached(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [new URL(entry, DIST)];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (seen.has(file.href)) continue;
    seen.add(file.href);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith(".")) queue.push(new URL(specifier, file));
      else packages.add(specifier);
    }
  }
  return packages;
}

test("the core entry reaches only fast-json-patch and canonicalize", () => {
  assert.deepEqual([...packagesReached("index.js")].sort(), ["canonicalize", "fast-json-patch"]);
});

test("each binding imports its framework, and the core only through relative paths", () => {
  const reached = (entry: string) => [...packagesReached(entry)].sort();
  assert.ok(reached("react.js").includes("@jsonforms/react"));
  assert.ok(reached("react.js").includes("@rjsf/core"));
  assert.ok(reached("copilotkit.js").includes("@copilotkit/react-core/v2"));
  assert.ok(reached("agui.js").every((p) => ["canonicalize", "fast-json-patch"].includes(p)));
});
