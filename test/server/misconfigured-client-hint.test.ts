import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { explainRouteMiss } from '../../src/server/generation/misconfigured-client-hint.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

const HOST = { host: 'gw.example:8080' };

describe('404s that teach the right base address', () => {
  const cases: Array<[string, string, string, Record<string, string>, string, RegExp]> = [
    [
      'Gemini CLI given <root>/v1beta',
      'POST',
      '/v1beta/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
      HOST,
      'gemini-generate-content',
      /configure the root address http:\/\/gw\.example:8080 instead, without \/v1beta/,
    ],
    ['genai SDK given <root>/v1beta, model list', 'GET', '/v1beta/v1beta/models', HOST, 'gemini-generate-content', /without \/v1beta/],
    [
      'Gemini provider given the root',
      'POST',
      '/models/gemini-2.5-pro:generateContent',
      HOST,
      'gemini-generate-content',
      /configure the base address http:\/\/gw\.example:8080\/v1beta/,
    ],
    ['Gemini provider given <root>/v1', 'POST', '/v1/v1beta/models/x:generateContent', HOST, 'gemini-generate-content', /http:\/\/gw\.example:8080\/v1beta/],
    ['Gemini provider listing models at the root', 'GET', '/models', { ...HOST, 'x-goog-api-key': 'k' }, 'gemini-generate-content', /\/v1beta/],
    [
      'chat SDK given <root>/v1/chat/completions',
      'POST',
      '/v1/chat/completions/chat/completions',
      HOST,
      'openai-chat',
      /configure the base address http:\/\/gw\.example:8080\/v1 \(not/,
    ],
    ['chat SDK given <root>/v1/models', 'POST', '/v1/models/chat/completions', HOST, 'openai-chat', /base address http:\/\/gw\.example:8080\/v1 /],
    ['chat SDK given the root without /v1', 'POST', '/chat/completions', HOST, 'openai-chat', /missing \/v1.*base address http:\/\/gw\.example:8080\/v1;/],
    ['model list without /v1', 'GET', '/models', HOST, 'openai-chat', /missing \/v1/],
    [
      'Claude Code given <root>/v1',
      'POST',
      '/v1/v1/messages?beta=true',
      HOST,
      'anthropic-messages',
      /root address http:\/\/gw\.example:8080 \(ANTHROPIC_BASE_URL\), without \/v1/,
    ],
    ['Anthropic client hitting /messages', 'POST', '/messages', HOST, 'anthropic-messages', /root address http:\/\/gw\.example:8080 \(without \/v1\)/],
    [
      'the same mistakes under the alternative prefix',
      'POST',
      '/antigravity/chat/completions',
      HOST,
      'openai-chat',
      /http:\/\/gw\.example:8080\/antigravity\/v1/,
    ],
    ['GET on a POST endpoint', 'GET', '/v1/chat/completions', HOST, 'openai-chat', /takes POST with a JSON body, not GET/],
    [
      'image variations: not passed through, supported routes named',
      'POST',
      '/v1/images/variations',
      HOST,
      'openai-chat',
      /POST \/v1\/images\/variations is not served: .*does not pass the rest of the OpenAI images API through.*\/v1\/embeddings.*\/v1\/images\/generations.*\/v1\/images\/edits.*\/v1\/audio\/transcriptions.*\/v1\/rerank.*:batchEmbedContents/,
    ],
    [
      'audio under the alternative prefix',
      'POST',
      '/antigravity/v1/audio/voices',
      HOST,
      'openai-chat',
      /OpenAI audio API.*http:\/\/gw\.example:8080\/antigravity\/v1\/chat\/completions/,
    ],
    ['legacy completions', 'POST', '/v1/completions', HOST, 'openai-chat', /OpenAI completions API/],
    ['GET on embeddings', 'GET', '/v1/embeddings', HOST, 'openai-chat', /takes POST/],
    [
      'anything else lists the surfaces',
      'GET',
      '/nothing/here',
      HOST,
      'openai-chat',
      /No endpoint at GET \/nothing\/here\. This gateway serves: .*\/v1\/chat\/completions.*\/v1\/embeddings.*\/v1\/messages.*\/v1beta\/models.*:embedContent.*\/antigravity\//,
    ],
  ];

  for (const [name, method, url, headers, protocol, message] of cases) {
    test(name, () => {
      const miss = explainRouteMiss(method, url, 'antigravity', headers);
      assert.equal(miss.protocol, protocol);
      assert.equal(miss.error.code, 'route_not_found');
      assert.equal(miss.error.status, 404);
      assert.match(miss.error.message, message);
    });
  }
});

describe('the 404s through HTTP, in each client shape', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test('Gemini shape for a doubled /v1beta', async () => {
    const response = await fetch(`${harness.url}/v1beta/v1beta/models/gemini-2.5-flash:generateContent`, { method: 'POST', body: '{}' });
    assert.equal(response.status, 404);
    const body = (await response.json()) as any;
    assert.equal(body.error.status, 'NOT_FOUND');
    assert.equal(body.error.details[0].reason, 'ROUTE_NOT_FOUND');
    assert.match(body.error.message, new RegExp(`root address ${harness.url.replace(/[.]/g, '\\.')} instead`));
  });

  test('OpenAI shape for /v1/models used as a base (POST /v1/models/chat/completions)', async () => {
    const response = await fetch(`${harness.url}/v1/models/chat/completions`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(response.status, 404);
    const body = (await response.json()) as any;
    assert.equal(body.error.code, 'route_not_found');
    assert.match(body.error.message, /\/v1 \(not/);
    assert.equal(response.headers.get('x-switchyard-error-code'), 'route_not_found');
  });

  test('the OpenAI SDK calling image variations and an unserved audio path gets a 404 naming what is supported', async () => {
    const { key } = await harness.addKey();
    const client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
    // Image generation is served (issue 32): a model the key's group lacks is the model's 404, not the route's.
    const generated = await client.images.generate({ model: 'dall-e-3', prompt: 'a fox' }).catch((error: unknown) => error);
    assert.ok(generated instanceof OpenAI.NotFoundError);
    assert.equal(generated.code, 'model_not_found');
    const edited = await fetch(`${harness.url}/v1/images/variations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(edited.status, 404);
    const editBody = (await edited.json()) as any;
    assert.equal(editBody.error.code, 'route_not_found');
    assert.match(editBody.error.message, /does not pass the rest of the OpenAI images API through.*\/v1\/images\/generations.*\/v1\/images\/edits/);
    // Speech is served too (issue 32): an unknown model is the model's 404.
    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hi' }).catch((error: unknown) => error);
    assert.ok(speech instanceof OpenAI.NotFoundError);
    assert.equal(speech.code, 'model_not_found');
    const voices = await fetch(`${harness.url}/v1/audio/voices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(voices.status, 404);
    assert.match(((await voices.json()) as any).error.message, /OpenAI audio API/);
  });

  test('Claude Code or the Anthropic SDK given <root>/v1 is served at /v1/v1/messages, with a warning on every answer (issue 24)', async () => {
    await harness.addChannel({ provider: 'anthropic', models: ['claude-doubled'] });
    const { key } = await harness.addKey();
    harness.simulator.enqueue({ text: 'served anyway' });
    const client = new Anthropic({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
    const { data, response } = await client.messages
      .create({ model: 'claude-doubled', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    assert.equal(data.content[0]?.type === 'text' ? data.content[0].text : '', 'served anyway');
    assert.equal(response.url, `${harness.url}/v1/v1/messages`);
    assert.equal(response.headers.get('x-switchyard-warnings'), 'compatibility:base_url_v1');
    const counted = await client.messages.countTokens({ model: 'claude-doubled', messages: [{ role: 'user', content: 'count me' }] }).withResponse();
    assert.ok(counted.data.input_tokens > 0);
    assert.equal(counted.response.headers.get('x-switchyard-warnings'), 'compatibility:base_url_v1');
    // The refusals carry it too, so a wrong key on a wrong address names both mistakes.
    const refused = await fetch(`${harness.url}/v1/v1/messages?beta=true`, {
      method: 'POST',
      body: '{}',
      headers: { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-wrong' },
    });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('x-switchyard-warnings'), 'compatibility:base_url_v1');
    const logs = (await harness.admin('GET', '/logs?limit=10')).data as Array<{ model: string; warnings: string[] }>;
    assert.ok(logs.find((row) => row.model === 'claude-doubled')?.warnings.includes('compatibility:base_url_v1'));
  });
});
