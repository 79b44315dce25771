import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Claude on Bedrock for Anthropic clients: InvokeModel / InvokeModelWithResponseStream with
 * Anthropic's own body (`anthropic_version: "bedrock-2023-05-31"`, no model, no stream), SigV4
 * signed, streams as event-stream `chunk` frames with base64 `bytes`, which the simulator checks
 * and writes as AWS does. The body rides the passthrough lane: cache_control and thinking
 * signatures reach Bedrock exactly as the client sent them.
 */
const AWS_ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const CLAUDE = 'anthropic.claude-sonnet-4-5-20250929-v1:0';

describe('Bedrock InvokeModel for Claude, from the Anthropic SDK', () => {
  let harness: Harness;
  let anthropic: Anthropic;
  let openai: OpenAI;

  before(async () => {
    harness = await startHarness({}, { clouds: { bedrock: { credentials: { [AWS_ACCESS_KEY]: AWS_SECRET } } } });
    await harness.addChannel({
      provider: 'bedrock',
      baseUrl: harness.simulator.url,
      region: 'us-east-1',
      apiKey: `${AWS_ACCESS_KEY}:${AWS_SECRET}`,
      models: ['bedrock-claude'],
      modelMap: { 'bedrock-claude': CLAUDE },
    });
    await harness.addChannel({
      provider: 'bedrock',
      baseUrl: harness.simulator.url,
      region: 'us-east-1',
      apiKey: `${AWS_ACCESS_KEY}:not-the-secret`,
      models: ['bedrock-claude-badly-signed'],
      modelMap: { 'bedrock-claude-badly-signed': CLAUDE },
    });
    const { key } = await harness.addKey();
    anthropic = new Anthropic({ baseURL: harness.url, apiKey: key, maxRetries: 0 });
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(() => harness.close());

  test('a plain call goes to /invoke, signed, with the native body: cache_control and betas exactly as sent', async () => {
    harness.simulator.enqueue({ text: 'native reply', usage: { input: 40, output: 3, cacheRead: 30 } });
    const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }];
    const reply = await anthropic.messages.create(
      { model: 'bedrock-claude', max_tokens: 50, system, messages, metadata: { user_id: 'u-1' } },
      { headers: { 'anthropic-beta': 'context-1m-2025-08-07, interleaved-thinking-2025-05-14' } },
    );
    assert.equal(reply.content[0]?.type === 'text' ? reply.content[0].text : '', 'native reply');
    assert.equal(reply.usage.cache_read_input_tokens, 30);
    const sent = harness.simulator.lastRequest();
    assert.equal(sent?.path, `/model/${encodeURIComponent(CLAUDE)}/invoke`);
    assert.match(sent?.headers.authorization ?? '', /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
    const body = sent?.body as Record<string, unknown>;
    assert.equal(body.anthropic_version, 'bedrock-2023-05-31');
    assert.equal('model' in body, false);
    assert.equal('stream' in body, false);
    assert.deepEqual(body.anthropic_beta, ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14']);
    assert.deepEqual(body.system, system);
    assert.deepEqual(body.messages, messages);
    assert.deepEqual(body.metadata, { user_id: 'u-1' });
  });

  test('a streamed tool loop with thinking: the signature Bedrock issued goes back byte for byte and is accepted', async () => {
    const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
    const thinking = { type: 'enabled' as const, budget_tokens: 1024 };
    harness.simulator.enqueue({
      reasoning: { text: 'The user wants the weather; call the tool.' },
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } }],
    });
    const first = await anthropic.messages
      .stream({ model: 'bedrock-claude', max_tokens: 2048, thinking, tools, messages: [{ role: 'user', content: 'weather in Paris?' }] })
      .finalMessage();
    const sent = harness.simulator.lastRequest();
    assert.equal(sent?.path, `/model/${encodeURIComponent(CLAUDE)}/invoke-with-response-stream`);
    assert.equal(sent?.headers.accept, 'application/vnd.amazon.eventstream');
    const thought = first.content[0];
    assert.equal(thought?.type, 'thinking');
    assert.ok(thought?.type === 'thinking' && thought.signature.length > 0);
    assert.equal(first.stop_reason, 'tool_use');

    // The simulator refuses a thinking block whose signature it did not issue for that exact text.
    harness.simulator.enqueue({ text: 'Sunny in Paris.' });
    const second = await anthropic.messages
      .stream({
        model: 'bedrock-claude',
        max_tokens: 2048,
        thinking,
        tools,
        messages: [
          { role: 'user', content: 'weather in Paris?' },
          { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
        ],
      })
      .finalMessage();
    assert.equal(second.content.at(-1)?.type === 'text' ? (second.content.at(-1) as Anthropic.TextBlock).text : '', 'Sunny in Paris.');
    const replayed = (harness.simulator.lastRequest()?.body as { messages: Array<{ content: unknown }> }).messages[1]?.content as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(replayed[0], {
      type: 'thinking',
      thinking: thought?.type === 'thinking' ? thought.thinking : '',
      signature: thought?.type === 'thinking' ? thought.signature : '',
    });
  });

  test("Bedrock's throttling on InvokeModel (AWS shape, 429) reaches the Anthropic client as Anthropic's rate-limit error", async () => {
    harness.simulator.enqueue({ fault: { type: 'status', status: 429, message: 'Too many requests, please wait before trying again.' } });
    const refused = await anthropic.messages.create({ model: 'bedrock-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof Anthropic.APIError);
    assert.equal(refused.status, 429);
    assert.match(String(refused.message), /Too many requests/);
    assert.match(harness.simulator.lastRequest()?.path ?? '', /\/invoke$/);
    // AWS names the type only in `x-amzn-errortype`; the usage row keeps it.
    const { data } = await harness.admin('GET', '/logs?limit=1');
    assert.equal(data[0].attempts[0]?.upstreamType, 'ThrottlingException');
  });

  test('other clients keep Converse; a wrongly signed request is refused as AWS refuses it', async () => {
    harness.simulator.enqueue({ text: 'converse reply' });
    const completion = await openai.chat.completions.create({ model: 'bedrock-claude', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(completion.choices[0]?.message.content, 'converse reply');
    assert.equal(harness.simulator.lastRequest()?.path, `/model/${encodeURIComponent(CLAUDE)}/converse`);

    const refused = await anthropic.messages.create({ model: 'bedrock-claude-badly-signed', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof Anthropic.APIError);
    assert.equal(harness.simulator.lastRequest()?.path, `/model/${encodeURIComponent(CLAUDE)}/invoke`);
  });
});
