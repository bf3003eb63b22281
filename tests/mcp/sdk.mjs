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

// What a host gets for each capability set it declares: the MCP App view,
// an elicitation (2026-07-28 `input_required`, fulfilled by the SDK's own
// multi-round-trip driver through the registered handler: form mode for a
// flat `output`, URL mode to a hosted link otherwise), or the hosted link
// as a `resource_link` (run.mjs gives the worker a WEBHOOK_SECRET, so hosted
// forms are on; without them the text names what is missing, which the
// native tests cover), or, for a host listing `application/a2ui+json` under
// the UI extension's `mimeTypes`, native A2UI v1.0 in an embedded resource,
// whose submit action the host maps to `tools/call` (the draft SEP "A2UI
// over MCP Apps").
const UI = 'io.modelcontextprotocol/ui';
const APP_MIME = 'text/html;profile=mcp-app';
const A2UI_MIME = 'application/a2ui+json';
const NESTED = {
  type: 'object',
  properties: { name: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' } } } },
  required: ['name'],
};

/** A 2026-07-28 client declaring `capabilities`, answering elicitations with `answer` (which sees each request's params). */
async function connectV2(capabilities, answer) {
  const client = new ClientV2(info, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  if (answer) client.setRequestHandler('elicitation/create', (request) => answer(request.params));
  await client.connect(new TransportV2(url(), { requestInit }));
  await client.listTools(); // the SDK checks structuredContent against outputSchema once it knows it
  return client;
}

/** A 2025-11-25 (handshake) client declaring `capabilities`. */
async function connectV1(capabilities) {
  const client = new ClientV1(info, { capabilities });
  await client.connect(new TransportV1(url(), { requestInit }));
  await client.listTools();
  return client;
}

const generate = (client, output) =>
  client.callTool({ name: 'generate_user_interface', arguments: { description: 'Contact details', output, data: { age: 30 } } });

/** The person sends the hosted form at `link` (field names are the data's JSON Pointers). */
async function sendHostedForm(link, fields) {
  const response = await fetch(link.split('#')[0], {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams(fields).toString(),
  });
  assert.ok(response.status < 300, `the hosted form took the answer (${response.status})`);
}

describe('each capability set gets its shape', () => {
  const open = [];
  const track = (client) => {
    open.push(client);
    return client;
  };
  after(async () => {
    for (const client of open) await client.close();
  });

  for (const [era, connect] of [['2026-07-28', (caps) => connectV2(caps)], ['2025-11-25', connectV1]]) {
    test(`${era}, MCP Apps: the form view's result`, async () => {
      const client = track(await connect({ extensions: { [UI]: { mimeTypes: [APP_MIME] } } }));
      const result = await generate(client, CONTACT);
      assert.ok(!result.isError, JSON.stringify(result.content));
      assert.match(result.structuredContent.markup, /^<form class="genui-form"/);
      assert.match(result.content[0].text, /fills it in the form view/);
      assert.equal(result.content.length, 1);
    });

    test(`${era}, A2UI MIME: native A2UI v1.0, whose submit action is the submit tool`, async () => {
      const client = track(await connect({ extensions: { [UI]: { mimeTypes: [APP_MIME, A2UI_MIME] } } }));
      const result = await generate(client, CONTACT);
      assert.ok(!result.isError, JSON.stringify(result.content));
      assert.equal(result.structuredContent.format, 'a2ui');
      const embedded = result.content.find((c) => c.type === 'resource');
      assert.equal(embedded.resource.mimeType, A2UI_MIME);
      const messages = JSON.parse(embedded.resource.text);
      assert.equal(messages.length, 1);
      assert.equal(messages[0].version, 'v1.0');
      const button = messages[0].createSurface.components.find((c) => c.id === 'submit');
      const { name, context } = button.action.event;
      assert.equal(name, 'submit_user_interface');
      // The host's action dispatcher: tools/call {name: action.name, arguments: action.context}, data resolved.
      const dispatch = (ctx, data) => client.callTool({ name, arguments: { ...ctx, data } });
      const valid = await dispatch(context, { email: 'ada@example.com', age: 36 });
      assert.ok(!valid.isError, JSON.stringify(valid.content));
      assert.deepEqual(valid.structuredContent.response.data, { email: 'ada@example.com', age: 36 });
      const wrong = `${context.specHash[0] === '0' ? '1' : '0'}${context.specHash.slice(1)}`;
      const refused = await dispatch({ ...context, specHash: wrong }, { email: 'ada@example.com' });
      assert.equal(refused.isError, true);
      assert.ok(refused.structuredContent.error.code, JSON.stringify(refused.content));
    });

    test(`${era}, no Apps and no elicitation: the hosted link as a resource_link, and the spec`, async () => {
      const client = track(await connect({}));
      const result = await generate(client, CONTACT);
      assert.ok(!result.isError, JSON.stringify(result.content));
      assert.ok(result.structuredContent.spec.uiSchema);
      const link = result.content.find((c) => c.type === 'resource_link');
      assert.match(link.uri, /\/f\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/);
      assert.ok(result.content[0].text.includes(link.uri));
      const page = await fetch(link.uri.split('#')[0]);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<form/);
    });
  }

  test('2026-07-28, elicitation form: the person\'s answer, checked against output', async () => {
    const asked = [];
    const client = track(
      await connectV2({ elicitation: { form: {} } }, (params) => {
        asked.push(params);
        return { action: 'accept', content: { email: 'ada@example.com', age: 36 } };
      }),
    );
    const result = await generate(client, CONTACT);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].mode, 'form');
    assert.deepEqual(asked[0].requestedSchema.properties.email, { type: 'string', format: 'email', title: 'E-mail' });
    assert.equal(asked[0].requestedSchema.properties.age.default, 30, 'the pre-fill');
    assert.deepEqual(asked[0].requestedSchema.required, ['email']);
    assert.ok(!result.isError, JSON.stringify(result.content));
    assert.deepEqual(result.structuredContent.response.data, { email: 'ada@example.com', age: 36 });
  });

  test('2026-07-28, elicitation form: an answer that breaks output is an error naming the pointer', async () => {
    const client = track(
      await connectV2({ elicitation: { form: {} } }, () => ({ action: 'accept', content: { email: 'not-an-email', age: 3 } })),
    );
    const result = await generate(client, CONTACT);
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.error.code, 'submission_invalid');
    assert.deepEqual(result.structuredContent.error.payload.errors.map((e) => e.pointer), ['/email']);
    assert.equal(result.structuredContent.response, undefined);
  });

  for (const action of ['decline', 'cancel']) {
    test(`2026-07-28, elicitation form, ${action}: a result saying so, no data`, async () => {
      const client = track(await connectV2({ elicitation: {} }, () => ({ action })));
      const result = await generate(client, CONTACT);
      assert.ok(!result.isError);
      assert.deepEqual(result.structuredContent, { action });
      assert.match(result.content[0].text, /no data was sent/);
    });
  }

  test('2026-07-28, elicitation URL (a non-flat output): the hosted link, and the answer the person sent there', async () => {
    const asked = [];
    const client = track(
      await connectV2({ elicitation: { form: {}, url: {} } }, async (params) => {
        asked.push(params);
        if (asked.length === 1) await sendHostedForm(params.url, { '/name': 'Ada', '/address/city': 'Paris' });
        return { action: 'accept' };
      }),
    );
    const result = await generate(client, NESTED);
    assert.equal(asked[0].mode, 'url');
    assert.match(asked[0].url, /\/f\//);
    assert.ok(!result.isError, JSON.stringify(result.content));
    assert.deepEqual(result.structuredContent.response.data, { name: 'Ada', address: { city: 'Paris' } });
  });

  test('2026-07-28, elicitation URL declined: a result saying so', async () => {
    const client = track(await connectV2({ elicitation: { url: {} } }, () => ({ action: 'decline' })));
    const result = await generate(client, NESTED);
    assert.deepEqual(result.structuredContent, { action: 'decline' });
  });
});
