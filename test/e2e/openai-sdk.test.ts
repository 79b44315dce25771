import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startHarness, UPSTREAM_SECRET, type Harness } from '../helpers/gateway-harness.ts';

describe('the openai SDK against an OpenAI-compatible channel', () => {
  let harness: Harness;
  let client: OpenAI;
  let key: string;

  before(async () => {
    harness = await startHarness();
    await harness.admin('POST', '/groups', { name: 'premium' });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o'], groups: ['premium'] });
    ({ key } = await harness.addKey());
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(() => harness.close());

  test('lists exactly the models of the key group', async () => {
    const page = await client.models.list();
    assert.deepEqual(
      page.data.map((model) => model.id),
      ['gpt-4o-mini'],
    );
    assert.equal(page.data[0]?.object, 'model');
  });

  test('answers a plain chat completion and sends the upstream secret, never the client key', async () => {
    harness.simulator.enqueue({ text: 'Plain answer.', usage: { input: 12, output: 3 } });
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Say something' }],
    });
    assert.equal(completion.choices[0]?.message.content, 'Plain answer.');
    assert.equal(completion.usage?.prompt_tokens, 12);
    const upstream = harness.simulator.lastRequest();
    assert.equal(upstream?.headers.authorization, `Bearer ${UPSTREAM_SECRET}`);
    assert.ok(!JSON.stringify(upstream?.headers).includes(key), 'client key leaked upstream');
    assert.ok(!JSON.stringify(upstream?.body).includes(key), 'client key leaked upstream');
  });

  test('streams a chat completion as it arrives, with usage when asked', async () => {
    harness.simulator.enqueue({ text: 'one two three four', usage: { input: 7, output: 4 } });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Count' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'one two three four');
    assert.ok(chunks >= 4, `expected several chunks, got ${chunks}`);
    assert.equal(usage?.completion_tokens, 4);
  });

  test('hides the usage chunk the gateway forced on when the client did not ask', async () => {
    harness.simulator.enqueue({ text: 'no usage please', usage: { input: 5, output: 3 } });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const chunk of stream) assert.equal(chunk.usage ?? null, null);
    const upstreamBody = harness.simulator.lastRequest()?.body as { stream_options?: { include_usage?: boolean } };
    assert.equal(upstreamBody.stream_options?.include_usage, true);
  });

  test('logs every request with tokens, channel and stream flag', async () => {
    harness.simulator.enqueue({ text: 'logged', usage: { input: 21, output: 2 } });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'log me' }] });
    const { data } = await harness.admin('GET', '/logs?limit=1');
    const entry = data[0];
    assert.equal(entry.model, 'gpt-4o-mini');
    assert.equal(entry.group, 'default');
    assert.equal(entry.status, 200);
    assert.equal(entry.inputTokens, 21);
    assert.equal(entry.outputTokens, 2);
    assert.equal(entry.stream, false);
    assert.equal(entry.channelName, 'channel-1');
    assert.ok(entry.requestId.startsWith('req_'));
    assert.ok(completion.id);
  });

  test('401 in the OpenAI shape without a key or with a wrong one', async () => {
    const anonymous = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: 'sk-wrong', maxRetries: 0 });
    await assert.rejects(anonymous.models.list(), (error: unknown) => {
      assert.ok(error instanceof OpenAI.AuthenticationError);
      assert.equal(error.status, 401);
      assert.equal((error.error as { code?: string }).code, 'invalid_api_key');
      return true;
    });
    const response = await fetch(`${harness.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    assert.equal(response.status, 401);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'invalid_api_key');
    assert.match(body.error.message, /request id/);
  });

  test('a model of another group gets the same 404 as an unknown model, naming no other group', async () => {
    await assert.rejects(client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError);
      assert.match(error.message, /does not exist/);
      assert.doesNotMatch(error.message, /premium/);
      return true;
    });
  });
});
