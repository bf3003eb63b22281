// The MCP App view in a real MCP Apps host: dist/mcp-host.html hosts the
// worker's ui://genui/form resource with AppBridge in a sandboxed iframe
// (src/mcp-host.js); tool calls from the view are POSTed to /mcp from node.
// The view is filled like a person would, submitted invalid (errors next to
// their fields), then valid (the submit tool called through the bridge, the
// model context updated, a confirmation shown), with a screenshot.
import assert from 'node:assert/strict';
import { join } from 'node:path';

const V = '2026-07-28';

/** One 2026-07-28 request to /mcp; returns the JSON-RPC result. */
export async function mcpRequest(baseUrl, method, params, name) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': method };
  if (name) headers['mcp-name'] = name;
  const _meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } };
  const r = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta } }) });
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.result;
}

export const CONTACT = {
  description: 'Your contact details for the delivery',
  output: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 1 },
      email: { type: 'string', format: 'email', title: 'E-mail' },
      age: { type: 'integer', minimum: 18, title: 'Age' },
    },
    required: ['name', 'email'],
  },
  data: { name: 'Ada Lovelace' },
  format: 'html',
};

/** Drives the view inside the host page; `shots` is the screenshot dir. */
export async function driveMcpApp({ context, staticUrl, baseUrl, shots }) {
  const [resource, generated] = await Promise.all([
    mcpRequest(baseUrl, 'resources/read', { uri: 'ui://genui/form' }, 'ui://genui/form'),
    mcpRequest(baseUrl, 'tools/call', { name: 'generate_user_interface', arguments: CONTACT }, 'generate_user_interface'),
  ]);
  assert.ok(!generated.isError, JSON.stringify(generated.content));
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.exposeFunction('callMcpTool', (params) => mcpRequest(baseUrl, 'tools/call', params, params.name));
  await page.goto(new URL('mcp-host.html', staticUrl).href);
  await page.evaluate((args) => window.startHost(args), { html: resource.contents[0].text, toolInput: CONTACT, toolResult: generated });
  const frame = page.frameLocator('#app-frame');
  const field = (pointer) => frame.locator(`[name="${pointer}"]`);
  await frame.locator('form.genui-form').waitFor();
  // Pre-filled from the tool input (the resource holds no data).
  assert.equal(await field('/name').inputValue(), 'Ada Lovelace');
  await page.screenshot({ path: join(shots, 'mcp-app-form.png'), fullPage: true });
  await field('/email').fill('not an e-mail');
  await field('/age').fill('12');
  await frame.locator('form [type="submit"]').first().click();
  await frame.locator('.mcp-error').first().waitFor();
  const errors = await frame.locator('.mcp-error').allTextContents();
  assert.equal(errors.length, 2, errors.join(' | '));
  assert.equal(await field('/email').getAttribute('aria-invalid'), 'true');
  await page.screenshot({ path: join(shots, 'mcp-app-errors.png'), fullPage: true });
  await field('/email').fill('ada@example.com');
  await field('/age').fill('36');
  await frame.locator('form [type="submit"]').first().click();
  await frame.locator('.confirmation').waitFor();
  const calls = await page.evaluate(() => window.__toolCalls);
  assert.deepEqual(calls.map((c) => c.name), ['submit_user_interface', 'submit_user_interface']);
  assert.deepEqual(calls[1].arguments.data, { name: 'Ada Lovelace', email: 'ada@example.com', age: 36 });
  const context_ = await page.evaluate(() => window.__modelContext);
  assert.equal(context_.length, 1);
  assert.equal(context_[0].structuredContent.submitted, true);
  assert.match(context_[0].content[0].text, /ada@example.com/);
  await page.screenshot({ path: join(shots, 'mcp-app-confirmation.png'), fullPage: true });
  await page.close();
}
