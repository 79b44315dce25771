// The simulator's Anthropic Messages dialect, checked by the official @anthropic-ai/sdk talking to it directly.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import type { ProviderSimulator } from './provider-simulator.ts';
import { startProviderSimulator } from './provider-simulator.ts';

describe('@anthropic-ai/sdk against the simulator', () => {
  let simulator: ProviderSimulator;
  let client: Anthropic;

  before(async () => {
    simulator = await startProviderSimulator();
    client = new Anthropic({ baseURL: simulator.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  });
  after(() => simulator.close());
  beforeEach(() => simulator.reset());

  test('messages.create returns text, echoes the model and splits cached input out of input_tokens', async () => {
    simulator.enqueue({ text: 'Hi there.', usage: { input: 100, output: 5, cacheRead: 60, cacheWrite: 30 } });
    const message = await client.messages.create({
      model: 'claude-test-1',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hello' }],
    });
    assert.equal(message.type, 'message');
    assert.equal(message.model, 'claude-test-1');
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hi there.' }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.usage.input_tokens, 10);
    assert.equal(message.usage.cache_read_input_tokens, 60);
    assert.equal(message.usage.cache_creation_input_tokens, 30);
    assert.equal(message.usage.output_tokens, 5);

    const recorded = simulator.lastRequest();
    assert.equal(recorded?.protocol, 'anthropic-messages');
    assert.equal(recorded?.path, '/v1/messages');
    assert.equal(recorded?.model, 'claude-test-1');
    // SDK 1.x authenticates with a bearer token and asks for the 2026 API version.
    assert.equal(recorded?.headers.authorization, 'Bearer sk-ant-test');
    assert.ok(recorded?.headers['anthropic-version']);
  });

  test('messages.create renders thinking with its signature, and tool_use with an object input', async () => {
    simulator.enqueue({
      reasoning: { text: 'The user wants weather.', signature: 'sig-123' },
      text: 'Checking.',
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } }],
    });
    const message = await client.messages.create({
      model: 'claude-test-1',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'weather?' }],
    });
    assert.deepEqual(message.content, [
      { type: 'thinking', thinking: 'The user wants weather.', signature: 'sig-123' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    assert.equal(message.stop_reason, 'tool_use');
  });

  test('messages.stream().finalMessage() assembles thinking + signature, text, tool_use input, stop_reason and usage', async () => {
    simulator.enqueue({
      reasoning: { text: 'Think about the two cities.', signature: 'sig-stream' },
      text: 'Here are both.',
      toolCalls: [
        { id: 'toolu_a', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2, 3] } },
        { name: 'get_time', arguments: { zone: 'Asia/Tokyo' } },
      ],
      usage: { input: 42, output: 17, cacheRead: 2 },
    });
    const stream = client.messages.stream({
      model: 'claude-test-2',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'go' }],
    });
    const events: string[] = [];
    const jsonFragments: string[] = [];
    stream.on('streamEvent', (event) => {
      events.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        jsonFragments.push(event.delta.partial_json);
      }
    });
    const message = await stream.finalMessage();

    assert.equal(events[0], 'message_start');
    assert.equal(events.at(-2), 'message_delta');
    assert.equal(events.at(-1), 'message_stop');
    assert.equal(message.model, 'claude-test-2');
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.content.length, 4);
    assert.deepEqual(message.content[0], {
      type: 'thinking',
      thinking: 'Think about the two cities.',
      signature: 'sig-stream',
    });
    assert.deepEqual(message.content[1], { type: 'text', text: 'Here are both.' });
    const [first, second] = [message.content[2], message.content[3]];
    assert.ok(first?.type === 'tool_use' && second?.type === 'tool_use');
    assert.deepEqual(
      { id: first.id, name: first.name, input: first.input },
      {
        id: 'toolu_a',
        name: 'get_weather',
        input: { city: 'Paris', days: [1, 2, 3] },
      },
    );
    assert.match(second.id, /^toolu_[A-Za-z0-9_-]+$/);
    assert.deepEqual(second.input, { zone: 'Asia/Tokyo' });
    // Arguments arrive in several fragments (the first one empty, like the real API).
    assert.ok(jsonFragments.filter((fragment) => fragment !== '').length >= 4);
    assert.equal(jsonFragments[0], '');
    assert.equal(message.usage.input_tokens, 40);
    assert.equal(message.usage.cache_read_input_tokens, 2);
    assert.equal(message.usage.output_tokens, 17);
  });

  test('finish reasons map to Anthropic stop reasons', async () => {
    simulator.enqueue({ text: 'truncated', finish: 'length' });
    simulator.enqueue({ text: 'no', finish: 'content_filter' });
    const request = { model: 'claude-test-3', max_tokens: 8, messages: [{ role: 'user' as const, content: 'x' }] };
    assert.equal((await client.messages.stream(request).finalMessage()).stop_reason, 'max_tokens');
    assert.equal((await client.messages.create(request)).stop_reason, 'refusal');
  });

  test('messages.countTokens answers input_tokens', async () => {
    simulator.enqueue({ usage: { input: 321, output: 0 } });
    const counted = await client.messages.countTokens({
      model: 'claude-test-1',
      messages: [{ role: 'user', content: 'count me' }],
    });
    assert.equal(counted.input_tokens, 321);
    assert.equal(simulator.lastRequest()?.endpoint, 'count-tokens');
  });

  test('models.list returns the Anthropic page shape', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      assert.equal(model.type, 'model');
      ids.push(model.id);
    }
    assert.deepEqual(ids, ['claude-sonnet-4-6', 'claude-haiku-4-5']);
    assert.equal(simulator.lastRequest()?.protocol, 'anthropic-messages');
  });
});
