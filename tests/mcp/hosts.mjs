// The MCP host configurations of examples/mcp, each connected with the MCP
// SDK client the way its host would: Claude Desktop's entry starts the
// mcp-remote bridge with the worker's URL (the bridge itself is not run
// here; the client connects to the URL and headers it would be given), VS
// Code's and Cursor's entries name the URL directly. Each connection lists
// the tools and calls generate_user_interface with the arguments of
// examples/curl/generate.json.
//
// GENUI_BASE is the worker's origin; the configurations name
// http://127.0.0.1:8787 (./scripts/dev.sh), rewritten to GENUI_BASE. Run by
// the harness test e2e-examples (cargo test -p genui-harness --test
// e2e-examples -- --ignored), which starts the worker.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOCUMENTED_ORIGIN = 'http://127.0.0.1:8787';
const BASE = process.env.GENUI_BASE;
if (!BASE) throw new Error('GENUI_BASE is unset: run through `cargo test -p genui-harness --test e2e-examples -- --ignored`');
const readJson = (path) => JSON.parse(readFileSync(resolve(root, path), 'utf8'));
const { arguments: ARGS } = readJson('examples/curl/generate.json');

/** `${env:NAME}` (VS Code, Cursor) and `${NAME}` (mcp-remote) from the environment. */
function expand(text) {
  return text.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name) => {
    assert.ok(name in process.env, `the configuration needs ${name} in the environment`);
    return process.env[name];
  });
}

/** Where a host's entry sends its requests: the URL and the headers. */
const HOSTS = {
  'Claude Desktop (claude_desktop_config.json)': () => {
    const entry = readJson('examples/mcp/claude_desktop_config.json').mcpServers.genui;
    assert.equal(entry.command, 'npx');
    assert.ok(entry.args.some((a) => /^mcp-remote@\d/.test(a)), 'the entry starts a pinned mcp-remote');
    const url = entry.args.find((a) => /^https?:\/\//.test(a));
    const headers = {};
    entry.args.forEach((arg, i) => {
      if (arg !== '--header') return;
      const [name, ...value] = entry.args[i + 1].split(':');
      headers[name] = expand(value.join(':'));
    });
    return { url, headers };
  },
  'VS Code (.vscode/mcp.json)': () => {
    const entry = readJson('examples/mcp/.vscode/mcp.json').servers.genui;
    assert.equal(entry.type, 'http');
    return { url: entry.url, headers: entry.headers ?? {} };
  },
  'Cursor (.cursor/mcp.json)': () => {
    const entry = readJson('examples/mcp/.cursor/mcp.json').mcpServers.genui;
    return { url: entry.url, headers: entry.headers ?? {} };
  },
};

for (const [host, entry] of Object.entries(HOSTS)) {
  test(`${host}: lists the tools and generates a form`, async () => {
    const { url, headers } = entry();
    assert.ok(url?.startsWith(`${DOCUMENTED_ORIGIN}/`), `${url} is on ${DOCUMENTED_ORIGIN}`);
    assert.equal(new URL(url).pathname, '/mcp');
    const target = new URL(url.replace(DOCUMENTED_ORIGIN, BASE));
    const requestInit = { headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, expand(v)])) };
    const client = new Client({ name: 'genui-example-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(target, { requestInit }));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'generate_user_interface'), JSON.stringify(tools.map((t) => t.name)));
      const result = await client.callTool({ name: 'generate_user_interface', arguments: ARGS });
      assert.ok(!result.isError, JSON.stringify(result.content));
      const { specHash, spec } = result.structuredContent;
      assert.match(specHash, /^[0-9a-f]{64}$/);
      const scopes = JSON.stringify(spec.uiSchema).match(/#\/properties\/\w+/g) ?? [];
      assert.deepEqual([...new Set(scopes)].sort(), Object.keys(ARGS.output.properties).map((p) => `#/properties/${p}`).sort());
      assert.deepEqual(spec.initialData, ARGS.data);
    } finally {
      await client.close();
    }
  });
}
