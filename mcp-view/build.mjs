// Builds the MCP App view ui://genui/form into dist/view.html: one static
// HTML page with its script and style inline (the resource's CSP allows no
// outside origin, and hosts load the page from a string), which the worker
// embeds at compile time (src/shell/mcp.rs). It inlines format=html's form
// style and script from genui-core, then a bundle of src/view.js with
// @modelcontextprotocol/ext-apps's App (and its MCP SDK and zod
// dependencies); their licences are kept in a comment at the top of the page.
import { build } from "esbuild";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

const here = new URL(".", import.meta.url).pathname;
// zod re-exports all its ~50 error-message languages as `z.locales`, which a
// namespace import keeps in the bundle (264 KB of 723 KB); nothing here reads
// them (zod's own default, English, is imported directly), so the index
// resolves to English alone.
const englishOnly = {
  name: "zod-locales-english-only",
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes("/zod/") ? { path: "zod-locales", namespace: "zod-locales" } : undefined);
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, () => ({
      contents: `export { default as en } from ${JSON.stringify(`${here}node_modules/zod/v4/locales/en.js`)};`,
      resolveDir: here,
    }));
  },
};
const result = await build({
  plugins: [englishOnly],
  entryPoints: [`${here}src/view.js`],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  platform: "browser",
  write: false,
  legalComments: "none",
});
const script = result.outputFiles[0].text.replaceAll("</script", "<\\/script");
// The form's own style and script, the same bytes format=html inlines
// (genui-core's render/html/form.css and form.js: one source).
const core = `${here}../crates/genui-core/src/render/html/`;
const style = readFileSync(`${core}form.css`, "utf8") + readFileSync(`${here}src/view.css`, "utf8");
const formScript = readFileSync(`${core}form.js`, "utf8").replaceAll("</script", "<\\/script");
const licence = (pkg) => readFileSync(`${here}node_modules/${pkg}/LICENSE`, "utf8").replaceAll("--", "- -");
const notice = ["@modelcontextprotocol/ext-apps", "@modelcontextprotocol/client", "@modelcontextprotocol/core", "zod"]
  .map((pkg) => `${pkg}:\n${licence(pkg)}`)
  .join("\n");
const html = `<!DOCTYPE html>
<!-- genui-worker form view (ui://genui/form). Bundled third-party code and its licences:
${notice}
-->
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Form</title>
<style>${style}</style>
</head>
<body>
<main id="root" aria-live="polite"><p class="status">Waiting for the form…</p></main>
<script>${formScript}</script>
<script>${script}</script>
</body>
</html>
`;
// Written only when it changed: the worker embeds the file, so a new
// modification time alone would make cargo rebuild the worker (and a
// `wrangler dev` start, whose build step runs this, wait for a full
// link-time-optimised build).
const out = `${here}dist/view.html`;
mkdirSync(`${here}dist`, { recursive: true });
if (!existsSync(out) || readFileSync(out, "utf8") !== html) writeFileSync(out, html);
console.log(`mcp-view: dist/view.html, ${html.length} bytes`);
