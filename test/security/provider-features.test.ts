import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, UPSTREAM_SECRET, type Harness } from '../helpers/gateway-harness.ts';
import { upstreamKeyHash } from '../../src/responses/upstream-key-hash.ts';

type Json = Record<string, any>;

/**
 * Issue 23, items 1 and 6: what a provider does beyond tokens (background answers, server
 * tools, the upstream account's stored objects, the priority tier) is refused with a 400 naming
 * the field, before any upstream call, unless the operator allows the class for the group; a
 * background answer is never fetched unmetered.
 */
describe('provider features the price table does not charge', () => {
  let harness: Harness;
  let key: string;
  let keyId: string;
  let allowedKey: string;

  before(async () => {
    harness = await startHarness();
    await harness.admin('POST', '/groups', { name: 'tools-ok', allowedFeatures: ['server-tools', 'stored-objects', 'priority-tier'] });
    for (const [provider, model, extra] of [
      ['openai', 'codex', { supportsResponses: true }],
      ['openai', 'chat', {}],
      ['anthropic', 'claude', {}],
      ['gemini', 'gemini', {}],
    ] as const) {
      await harness.addChannel({ provider, models: [model], groups: ['default', 'tools-ok'], ...extra });
    }
    ({ key, id: keyId } = await harness.addKey());
    ({ key: allowedKey } = await harness.addKey({ group: 'tools-ok' }));
  });
  after(() => harness.close());

  const post = async (path: string, body: Json, secret = key): Promise<{ status: number; json: Json }> => {
    const response = await fetch(`${harness.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secret}`,
        'x-api-key': secret,
        'x-goog-api-key': secret,
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Json };
  };
  const generated = () => harness.simulator.requests.filter((request) => request.endpoint === 'generate').length;

  test('item 1: background: true on a Responses passthrough channel is a 400 naming the field, and the upstream is never asked', async () => {
    const before = generated();
    const reply = await post('/v1/responses', { model: 'codex', input: 'Write a long essay.', background: true, max_output_tokens: 4000 });
    assert.equal(reply.status, 400, JSON.stringify(reply.json));
    assert.equal(reply.json.error.param, 'background');
    assert.match(reply.json.error.message, /"background"/);
    assert.equal(generated(), before, 'no upstream call');
    // Not even a group allowed every feature class may: the answer would be made out of the gateway's sight.
    assert.equal((await post('/v1/responses', { model: 'codex', input: 'Hi', background: true }, allowedKey)).status, 400);
  });

  test('item 1: GET of an upstream-held background response (made before the fix) is refused, not served unbilled', async () => {
    // A background response the upstream account keeps, as the gateway's old code let a tenant make.
    const made = await fetch(`${harness.simulator.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${UPSTREAM_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'codex', input: 'Write a long essay.', background: true }),
    });
    const queued = (await made.json()) as Json;
    assert.equal(queued.status, 'queued', 'the simulator queues a background response, as OpenAI does');
    const channel = (await harness.admin('GET', '/channels')).data.find((entry: Json) => entry.models.includes('codex'));
    const now = Date.now();
    await harness.gateway.store.responses.insert({
      id: queued.id,
      keyId,
      previousResponseId: null,
      holder: 'upstream',
      channelId: channel.id,
      upstreamKeyHash: upstreamKeyHash(UPSTREAM_SECRET),
      model: 'codex',
      input: null,
      response: null,
      sizeBytes: 0,
      createdAt: now,
      expiresAt: now + 3_600_000,
    });
    const fetched = await fetch(`${harness.url}/v1/responses/${queued.id}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await fetched.json()) as Json;
    assert.equal(fetched.status, 400, `the completed answer is not handed out: ${JSON.stringify(body).slice(0, 200)}`);
    assert.equal(body.output, undefined);
  });

  const REFUSED: { name: string; path: string; body: Json; field: string }[] = [
    { name: 'Responses stored prompt', path: '/v1/responses', body: { model: 'codex', input: 'Hi', prompt: { id: 'pmpt_operator' } }, field: 'prompt' },
    { name: 'Responses conversation', path: '/v1/responses', body: { model: 'codex', input: 'Hi', conversation: 'conv_operator' }, field: 'conversation' },
    { name: 'Responses priority tier', path: '/v1/responses', body: { model: 'codex', input: 'Hi', service_tier: 'priority' }, field: 'service_tier' },
    {
      name: 'Chat priority tier',
      path: '/v1/chat/completions',
      body: { model: 'chat', messages: [{ role: 'user', content: 'Hi' }], service_tier: 'priority' },
      field: 'service_tier',
    },
    {
      name: 'Chat web_search_options',
      path: '/v1/chat/completions',
      body: { model: 'chat', messages: [{ role: 'user', content: 'Hi' }], web_search_options: {} },
      field: 'web_search_options',
    },
    {
      name: 'Anthropic mcp_servers',
      path: '/v1/messages',
      body: {
        model: 'claude',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
        mcp_servers: [{ type: 'url', url: 'http://169.254.169.254/', name: 'x' }],
      },
      field: 'mcp_servers',
    },
    {
      name: 'Anthropic container',
      path: '/v1/messages',
      body: { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], container: 'container_operator' },
      field: 'container',
    },
  ];

  for (const refused of REFUSED) {
    test(`item 6: ${refused.name} is a 400 naming ${refused.field} in the caller's shape, with no upstream call; an allowed group passes`, async () => {
      const before = generated();
      const reply = await post(refused.path, refused.body);
      assert.equal(reply.status, 400, JSON.stringify(reply.json));
      const message: string = reply.json.error.message;
      assert.ok(message.includes(`"${refused.field}"`), message);
      assert.match(message, /allowedFeatures/);
      if (refused.path.startsWith('/v1/messages')) assert.equal(reply.json.type, 'error', 'Anthropic error shape');
      assert.equal(generated(), before, 'no upstream call');
      const allowed = await post(refused.path, refused.body, allowedKey);
      assert.notEqual(allowed.status, 400, `allowed for the tools-ok group: ${JSON.stringify(allowed.json).slice(0, 300)}`);
    });
  }

  /** Declared server tools: the client offers them to the model (Codex offers web search on every request). */
  const DECLARED: { name: string; path: string; body: Json; field: string; marker: string }[] = [
    {
      name: 'Responses web_search',
      path: '/v1/responses',
      body: { model: 'codex', input: 'Hi', tools: [{ type: 'function', name: 'f', parameters: {} }, { type: 'web_search' }] },
      field: 'tools[1]',
      marker: '"web_search"',
    },
    {
      name: 'Responses file_search',
      path: '/v1/responses',
      body: { model: 'codex', input: 'Hi', tools: [{ type: 'file_search', vector_store_ids: ['vs_operator'] }] },
      field: 'tools[0]',
      marker: 'vs_operator',
    },
    {
      name: 'Responses code_interpreter',
      path: '/v1/responses',
      body: { model: 'codex', input: 'Hi', tools: [{ type: 'code_interpreter', container: 'cntr_operator' }] },
      field: 'tools[0]',
      marker: 'code_interpreter',
    },
    {
      name: 'Responses image_generation',
      path: '/v1/responses',
      body: { model: 'codex', input: 'Hi', tools: [{ type: 'image_generation' }] },
      field: 'tools[0]',
      marker: 'image_generation',
    },
    {
      name: 'Anthropic web_search',
      path: '/v1/messages',
      body: { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'web_search_20250305', name: 'web_search' }] },
      field: 'tools[0]',
      marker: 'web_search_20250305',
    },
    {
      name: 'Anthropic web_fetch',
      path: '/v1/messages',
      body: { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'web_fetch_20250910', name: 'web_fetch' }] },
      field: 'tools[0]',
      marker: 'web_fetch_20250910',
    },
    {
      name: 'Anthropic code_execution',
      path: '/v1/messages',
      body: {
        model: 'claude',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ type: 'code_execution_20250825', name: 'code_execution' }],
      },
      field: 'tools[0]',
      marker: 'code_execution_20250825',
    },
    {
      name: 'Gemini google_search',
      path: '/v1beta/models/gemini:generateContent',
      body: {
        contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
        tools: [{ googleSearch: {}, functionDeclarations: [{ name: 'kept_function', parameters: { type: 'object' } }] }],
      },
      field: 'tools[0]',
      marker: 'googleSearch',
    },
  ];

  const lastUpstreamBody = (): string => String(harness.simulator.requests.filter((request) => request.endpoint === 'generate').at(-1)?.rawBody ?? '');

  for (const declared of DECLARED) {
    test(`item 6: a declared ${declared.name} tool is left out of the request with an unsupported:${declared.field} warning; an allowed group keeps it`, async () => {
      const response = await fetch(`${harness.url}${declared.path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'x-api-key': key,
          'x-goog-api-key': key,
          'content-type': 'application/json',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify(declared.body),
      });
      assert.equal(response.status, 200, await response.clone().text());
      assert.match(response.headers.get('x-switchyard-warnings') ?? '', new RegExp(`unsupported:${declared.field.replace(/[[\]]/g, '\\$&')}`));
      assert.ok(!lastUpstreamBody().includes(declared.marker), `the upstream never saw the tool: ${lastUpstreamBody().slice(0, 300)}`);
      if (declared.marker === 'googleSearch') assert.match(lastUpstreamBody(), /kept_function/, 'the function declarations beside it stay');
      const allowed = await post(declared.path, declared.body, allowedKey);
      assert.equal(allowed.status, 200, JSON.stringify(allowed.json).slice(0, 300));
      assert.ok(lastUpstreamBody().includes(declared.marker), 'an allowed group keeps the tool');
    });
  }

  test('item 6: plain function tools and the default tier pass; the group policy is an admin field (400 for an unknown class)', async () => {
    const plain = await post('/v1/responses', { model: 'codex', input: 'Hi', service_tier: 'auto', tools: [{ type: 'function', name: 'f', parameters: {} }] });
    assert.equal(plain.status, 200, JSON.stringify(plain.json));
    const group = await harness.admin('GET', '/groups');
    assert.deepEqual(group.data.find((entry: Json) => entry.name === 'default').allowedFeatures, []);
    await harness.admin('PATCH', '/groups/default', { allowedFeatures: ['everything'] }, 400);
    await harness.admin('PATCH', '/groups/default', { allowedFeatures: ['priority-tier'] });
    const tier = await post('/v1/chat/completions', { model: 'chat', messages: [{ role: 'user', content: 'Hi' }], service_tier: 'priority' });
    assert.equal(tier.status, 200, JSON.stringify(tier.json));
    await harness.admin('PATCH', '/groups/default', { allowedFeatures: [] });
  });

  test('item 6: a model price carries a web search price (USD per 1,000 searches), kept and shown', async () => {
    await harness.admin('POST', '/prices', { model: 'claude', input: 3, output: 15, webSearch: 10 });
    const price = (await harness.admin('GET', '/prices')).data.find((entry: Json) => entry.model === 'claude');
    assert.equal(price.webSearch, 10);
    assert.equal((await harness.gateway.store.prices.list()).find((entry) => entry.model === 'claude')?.webSearchPerThousand, 10_000_000);
  });
});
