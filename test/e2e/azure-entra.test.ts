import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { clearEntraTokens } from '../../src/relay/channels/auth/azure-entra-token.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Azure OpenAI with an Entra ID app instead of a resource key: the channel secret is the app's
 * JSON, the gateway gets a token by client credentials from the tenant's token endpoint (the
 * simulator's, like Entra ID's), caches it, and sends it as a bearer; the simulated Azure front
 * accepts only tokens it issued.
 */
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const CLIENT_ID = 'b5e3c1a2-0000-4000-8000-00000000c11e';
const CLIENT_SECRET = 'Sim~Secret.value_0123456789abcdefghij';

describe('Azure OpenAI with Entra ID client credentials', () => {
  let harness: Harness;
  let client: OpenAI;
  before(async () => {
    clearEntraTokens();
    harness = await startHarness(
      {},
      { clouds: { azure: { apiKey: 'unused-resource-key', entraApps: { [CLIENT_ID]: { tenantId: TENANT, clientSecret: CLIENT_SECRET } } } } },
    );
    const app = (clientSecret: string) => JSON.stringify({ tenantId: TENANT, clientId: CLIENT_ID, clientSecret, authorityHost: harness.simulator.url });
    await harness.addChannel({
      provider: 'azure',
      baseUrl: harness.simulator.url,
      apiKey: app(CLIENT_SECRET),
      models: ['entra-chat', 'entra-embed'],
      modelMap: { 'entra-embed': 'text-embedding-3-small' },
    });
    await harness.addChannel({ provider: 'azure', baseUrl: harness.simulator.url, apiKey: app('wrong-secret'), models: ['entra-broken'] });
    const { key } = await harness.addKey();
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(() => harness.close());

  test('chat, a stream and embeddings all carry one cached bearer token', async () => {
    harness.simulator.enqueue({ text: 'via entra' });
    const plain = await client.chat.completions.create({ model: 'entra-chat', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(plain.choices[0]?.message.content, 'via entra');
    const sent = harness.simulator.lastRequest();
    assert.match(sent?.headers.authorization ?? '', /^Bearer eyJ0eXAiOiJKV1Qi\.sim-entra-/);
    assert.equal(sent?.headers['api-key'], undefined);
    harness.simulator.enqueue({ text: 'streamed via entra' });
    const stream = await client.chat.completions.create({ model: 'entra-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'streamed via entra');
    const embedded = await client.embeddings.create({ model: 'entra-embed', input: 'vector me' });
    assert.equal(embedded.data.length, 1);
    assert.equal(harness.simulator.issuedTokens(), 1, 'one token minted and reused');
  });

  test('an upstream error that quotes the minted token reaches neither the client nor the usage log (issue 23 item 16)', async () => {
    harness.simulator.enqueue({ text: 'mint first' });
    await client.chat.completions.create({ model: 'entra-chat', messages: [{ role: 'user', content: 'hi' }] });
    const token = (harness.simulator.lastRequest()?.headers.authorization ?? '').replace(/^Bearer /, '');
    assert.ok(token.length > 20, 'a bearer token was sent');
    harness.simulator.enqueue({ fault: { type: 'status', status: 400, message: `Bearer token ${token} is not valid for this deployment` } });
    const failed = await client.chat.completions.create({ model: 'entra-chat', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    assert.ok(failed instanceof OpenAI.APIError);
    assert.equal(failed.status, 400);
    assert.match(failed.message, /\[redacted\]/);
    assert.ok(!failed.message.includes(token.slice(0, 16)), failed.message);
    let logged = '';
    for (let tries = 0; tries < 100 && !logged.includes('[redacted]'); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      logged = JSON.stringify(await harness.admin('GET', '/logs'));
    }
    assert.match(logged, /\[redacted\]/, 'the failed request is in the usage log');
    assert.ok(!logged.includes(token.slice(0, 16)), 'the usage log holds no part of the token');
  });

  test('a refused app secret fails the channel as a broken credential, without echoing the secret', async () => {
    const refused = await client.chat.completions
      .create({ model: 'entra-broken', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.APIError);
    assert.equal(refused.status, 401);
    assert.match(refused.message, /Entra ID credentials: the token endpoint refused the app \(401: invalid_client\)/);
    assert.doesNotMatch(refused.message, /wrong-secret/);
  });
});
