// The MCP SDK clients against /mcp: @modelcontextprotocol/sdk 1.x (the
// 2025-11-25 handshake, what most hosts speak today) and
// @modelcontextprotocol/client 2.x pinned to 2026-07-28 (stateless, via
// server/discover). Each lists the tools, calls generate_user_interface for
// every generate fixture, reads the form view, and submits valid and
// invalid data. MCP_URL names the endpoint (run.mjs starts the worker).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';

const here = dirname(fileURLToPath(import.meta.url));
const fixturesDir = resolve(here, '../../crates/genui-core/tests/fixtures/generate');
const fixtures = readdirSync(fixturesDir).filter((f) => f.endsWith('.json'));
const url = () => new URL(process.env.MCP_URL);
const info = { name: 'genui-mcp-test', version: '1.0.0' };
// The bearer header hosts send: the worker under test has no API_KEYS, so
// this only shows the header reaches /mcp without harm.
const requestInit = { headers: { Authorization: 'Bearer test-key' } };

const CONTACT = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'E-mail' },
    age: { type: 'integer', minimum: 0, title: 'Age' },
  },
  required: ['email'],
};

const clients = {
  'sdk 1.32.2, handshake 2025-11-25': {
    version: '2025-11-25',
    connect: async () => {
      const client = new ClientV1(info);
      await client.connect(new TransportV1(url(), { requestInit }));
      return client;
    },
  },
  'client 2.4.0, stateless 2026-07-28': {
    version: '2026-07-28',
    connect: async () => {
      const client = new ClientV2(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new TransportV2(url(), { requestInit }));
      return client;
    },
  },
};

for (const [name, { version, connect }] of Object.entries(clients)) {
  describe(name, () => {
    let client;
    before(async () => {
      client = await connect();
    });
    after(async () => {
      await client?.close();
    });

    test('speaks the expected version', () => {
      const negotiated = client.getNegotiatedProtocolVersion?.() ?? client.transport?.protocolVersion;
      assert.equal(negotiated, version);
    });

    test('lists both tools, the generator linked to the form view', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['generate_user_interface', 'submit_user_interface']);
      assert.equal(tools[0]._meta.ui.resourceUri, 'ui://genui/form');
      assert.ok(tools[1]._meta.ui.visibility.includes('app'));
      assert.ok(tools[0].outputSchema && tools[0].inputSchema.properties.output);
    });

    test(`generates every fixture (${fixtures.length})`, async () => {
      for (const file of fixtures) {
        const args = JSON.parse(readFileSync(join(fixturesDir, file), 'utf8'));
        const result = await client.callTool({ name: 'generate_user_interface', arguments: args });
        assert.ok(!result.isError, `${file}: ${JSON.stringify(result.content)}`);
        assert.match(result.structuredContent.specHash, /^[0-9a-f]{64}$/, file);
        assert.equal(result.structuredContent.format, 'jsonforms', file);
        assert.ok(result.structuredContent.spec.uiSchema, file);
        assert.match(result.structuredContent.markup, /^<form class="genui-form"/, file);
        assert.match(result.content[0].text, /specHash/, file);
      }
    });

    test('reads the form view: static HTML with a closed CSP', async () => {
      const { contents } = await client.readResource({ uri: 'ui://genui/form' });
      assert.equal(contents.length, 1);
      assert.equal(contents[0].mimeType, 'text/html;profile=mcp-app');
      assert.match(contents[0].text, /^<!DOCTYPE html>/);
      assert.deepEqual(contents[0]._meta.ui.csp.connectDomains, []);
    });

    test('an unknown resource is the version\'s not-found error', async () => {
      await assert.rejects(client.readResource({ uri: 'ui://genui/nope' }), (error) => {
        assert.equal(error.code, version === '2026-07-28' ? -32602 : -32002);
        assert.match(error.message, /generate_user_interface again/);
        return true;
      });
    });

    test('submits valid data by specHash, and invalid data gets pointers', async () => {
      const made = await client.callTool({
        name: 'generate_user_interface',
        arguments: { description: 'Contact details', output: CONTACT, data: { email: 'old@example.com' } },
      });
      const specHash = made.structuredContent.specHash;
      const submit = (data) => client.callTool({ name: 'submit_user_interface', arguments: { specHash, data, toolCallId: 'call-1' } });
      const valid = await submit({ email: 'ada@example.com', age: 36 });
      assert.ok(!valid.isError, JSON.stringify(valid.content));
      assert.equal(valid.structuredContent.toolMessage.toolCallId, 'call-1');
      assert.deepEqual(JSON.parse(valid.structuredContent.toolMessage.content), { email: 'ada@example.com', age: 36 });
      const invalid = await submit({ email: 'not-an-email', age: -2 });
      assert.equal(invalid.isError, true);
      const error = invalid.structuredContent.error;
      assert.equal(error.code, 'submission_invalid');
      assert.deepEqual(error.payload.errors.map((e) => e.pointer).sort(), ['/age', '/email']);
    });

    test('a bad schema is a tool error the model can read', async () => {
      const result = await client.callTool({
        name: 'generate_user_interface',
        arguments: { description: 'x', output: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } },
      });
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent.error.code, 'unresolved_ref');
      assert.match(result.content[0].text, /unresolved_ref/);
    });
  });
}
