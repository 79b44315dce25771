// The simulator's OpenAI dialects, checked by the official openai SDK talking to it directly.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { ProviderSimulator } from './provider-simulator.ts';
import { startProviderSimulator } from './provider-simulator.ts';

const weatherCalls = [
  { id: 'call_paris', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
  { id: 'call_tokyo', name: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
];

describe('openai SDK against the simulator', () => {
  let simulator: ProviderSimulator;
  let client: OpenAI;

  before(async () => {
    simulator = await startProviderSimulator();
    client = new OpenAI({ baseURL: `${simulator.url}/v1`, apiKey: 'sk-test-openai', maxRetries: 0 });
  });
  after(() => simulator.close());
  beforeEach(() => simulator.reset());

  test('chat.completions.create returns the scripted text, echoes the model and reports usage', async () => {
    simulator.enqueue({ text: 'Plain answer.', usage: { input: 12, output: 3, cacheRead: 4, reasoning: 1 } });
    const completion = await client.chat.completions.create({
      model: 'gpt-test-1',
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, 'gpt-test-1');
    assert.equal(completion.choices[0]?.message.content, 'Plain answer.');
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    assert.equal(completion.usage?.prompt_tokens, 12);
    assert.equal(completion.usage?.completion_tokens, 3);
    assert.equal(completion.usage?.total_tokens, 15);
    assert.equal(completion.usage?.prompt_tokens_details?.cached_tokens, 4);
    assert.equal(completion.usage?.completion_tokens_details?.reasoning_tokens, 1);

    const recorded = simulator.lastRequest();
    assert.equal(recorded?.protocol, 'openai-chat');
    assert.equal(recorded?.path, '/v1/chat/completions');
    assert.equal(recorded?.model, 'gpt-test-1');
    assert.equal(recorded?.stream, false);
    assert.equal(recorded?.headers.authorization, 'Bearer sk-test-openai');
    assert.deepEqual((recorded?.body as { messages: unknown }).messages, [{ role: 'user', content: 'hi' }]);
  });

  test('text may be a function of the request, e.g. to echo the prompt', async () => {
    simulator.setDefault({
      text: (request) => `echo: ${(request.body as { messages: Array<{ content: string }> }).messages[0]?.content}`,
    });
    const completion = await client.chat.completions.create({
      model: 'gpt-test-1',
      messages: [{ role: 'user', content: 'ping' }],
    });
    assert.equal(completion.choices[0]?.message.content, 'echo: ping');
  });

  test('non-streamed reasoning arrives as reasoning_content beside the answer', async () => {
    simulator.enqueue({ text: 'Four.', reasoning: { text: 'Two plus two is four.' } });
    const completion = await client.chat.completions.create({
      model: 'gpt-test-1',
      messages: [{ role: 'user', content: '2+2?' }],
    });
    const message = completion.choices[0]?.message as unknown as Record<string, unknown>;
    assert.equal(message.reasoning_content, 'Two plus two is four.');
    assert.equal(message.content, 'Four.');
  });

  test('chat.completions.stream accumulates text and a usage chunk when include_usage is asked for', async () => {
    simulator.enqueue({ text: 'One two three four', usage: { input: 20, output: 4 } });
    const stream = client.chat.completions.stream({
      model: 'gpt-test-2',
      messages: [{ role: 'user', content: 'count' }],
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    stream.on('chunk', (chunk) => chunks.push(chunk));
    const final = await stream.finalChatCompletion();
    assert.equal(final.choices[0]?.message.content, 'One two three four');
    assert.equal(final.choices[0]?.finish_reason, 'stop');
    assert.equal(final.model, 'gpt-test-2');
    assert.deepEqual(
      { prompt: final.usage?.prompt_tokens, completion: final.usage?.completion_tokens, total: final.usage?.total_tokens },
      { prompt: 20, completion: 4, total: 24 },
    );
    const contentDeltas = chunks.map((chunk) => chunk.choices[0]?.delta.content).filter((c) => c !== undefined && c !== '');
    assert.deepEqual(contentDeltas, ['One', ' two', ' three', ' four']);
    const last = chunks.at(-1)!;
    assert.deepEqual(last.choices, []);
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null && chunk.choices.length === 1));
  });

  test('without include_usage the stream has no usage chunk and no usage field', async () => {
    simulator.enqueue({ text: 'No usage here', chunks: 2 });
    const stream = await client.chat.completions.create({
      model: 'gpt-test-2',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.ok(chunks.every((chunk) => chunk.choices.length === 1 && !('usage' in chunk)));
    assert.deepEqual(
      chunks.map((chunk) => chunk.choices[0]?.delta.content).filter((c) => c),
      ['No usa', 'ge here'],
    );
  });

  test('parallel tool calls stream by index and accumulate into complete calls', async () => {
    simulator.enqueue({ toolCalls: weatherCalls, usage: { input: 30, output: 10 } });
    const final = await client.chat.completions
      .stream({
        model: 'gpt-test-3',
        messages: [{ role: 'user', content: 'weather?' }],
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    const choice = final.choices[0]!;
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.content, null);
    const calls = (choice.message.tool_calls ?? []).map((call) => {
      assert.equal(call.type, 'function');
      return call.type === 'function' ? { id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown } : undefined;
    });
    assert.deepEqual(calls, weatherCalls);
    assert.equal(final.usage?.total_tokens, 40);
  });

  test('tool calls without scripted ids get call_ ids, non-streamed too', async () => {
    simulator.enqueue({ toolCalls: [{ name: 'lookup', arguments: {} }] });
    const completion = await client.chat.completions.create({
      model: 'gpt-test-3',
      messages: [{ role: 'user', content: 'x' }],
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    assert.equal(completion.choices[0]?.finish_reason, 'tool_calls');
    assert.ok(call?.type === 'function');
    assert.match(call.id, /^call_/);
    assert.equal(call.function.arguments, '{}');
  });

  test('responses.create returns text, function_call items and usage', async () => {
    simulator.enqueue({
      text: 'Let me check.',
      toolCalls: [weatherCalls[0]!],
      usage: { input: 50, output: 8, cacheRead: 10, reasoning: 2 },
    });
    const response = await client.responses.create({ model: 'gpt-resp-1', input: 'weather in Paris?' });
    assert.equal(response.object, 'response');
    assert.equal(response.status, 'completed');
    assert.equal(response.model, 'gpt-resp-1');
    assert.equal(response.output_text, 'Let me check.');
    const call = response.output.find((item) => item.type === 'function_call');
    assert.ok(call?.type === 'function_call');
    assert.equal(call.call_id, 'call_paris');
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.arguments), weatherCalls[0]!.arguments);
    assert.deepEqual(response.usage, {
      input_tokens: 50,
      input_tokens_details: { cached_tokens: 10 },
      output_tokens: 8,
      output_tokens_details: { reasoning_tokens: 2 },
      total_tokens: 58,
    });
    assert.equal(simulator.lastRequest()?.protocol, 'openai-responses');
  });

  test('responses.stream yields the full event sequence and finalResponse assembles it', async () => {
    simulator.enqueue({
      text: 'Sunny in Paris.',
      reasoning: { text: 'Need the weather tool.', signature: 'enc-abc' },
      toolCalls: weatherCalls,
      usage: { input: 40, output: 12 },
    });
    const stream = client.responses.stream({
      model: 'gpt-resp-2',
      input: 'weather?',
      include: ['reasoning.encrypted_content'],
    });
    const events: Array<{ type: string; sequence_number: number }> = [];
    stream.on('event', (event) => events.push(event));
    const final = await stream.finalResponse();

    assert.deepEqual(
      events.map((event) => event.sequence_number),
      events.map((_, index) => index),
    );
    const types = events.map((event) => event.type);
    assert.equal(types[0], 'response.created');
    assert.equal(types.at(-1), 'response.completed');
    for (const expected of [
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
    ]) {
      assert.ok(types.includes(expected), `missing ${expected}`);
    }

    assert.equal(final.status, 'completed');
    assert.equal(final.model, 'gpt-resp-2');
    assert.equal(final.output_text, 'Sunny in Paris.');
    assert.deepEqual(
      final.output.map((item) => item.type),
      ['reasoning', 'message', 'function_call', 'function_call'],
    );
    const reasoning = final.output[0];
    assert.ok(reasoning?.type === 'reasoning');
    assert.deepEqual(reasoning.summary, [{ type: 'summary_text', text: 'Need the weather tool.' }]);
    assert.equal(reasoning.encrypted_content, 'enc-abc');
    const calls = final.output.flatMap((item) =>
      item.type === 'function_call' ? [{ id: item.call_id, name: item.name, arguments: JSON.parse(item.arguments) }] : [],
    );
    assert.deepEqual(calls, weatherCalls);
    assert.equal(final.usage?.input_tokens, 40);
    assert.equal(final.usage?.output_tokens, 12);
    assert.equal(final.usage?.total_tokens, 52);
  });

  test('encrypted reasoning is left out unless the request includes it', async () => {
    simulator.enqueue({ text: 'ok', reasoning: { text: 'thinking', signature: 'enc-abc' } });
    const response = await client.responses.create({ model: 'gpt-resp-2', input: 'x' });
    const reasoning = response.output[0];
    assert.ok(reasoning?.type === 'reasoning');
    assert.equal(reasoning.encrypted_content, undefined);
  });

  test('a length cut-off ends a Responses stream with response.incomplete', async () => {
    simulator.enqueue({ text: 'Cut off mid', finish: 'length' });
    simulator.enqueue({ text: 'Cut off mid', finish: 'length' });
    const stream = client.responses.stream({ model: 'gpt-resp-3', input: 'long story' });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    await stream.done();
    assert.equal(types.at(-1), 'response.incomplete');
    const response = await client.responses.create({ model: 'gpt-resp-3', input: 'x' });
    assert.equal(response.status, 'incomplete');
    assert.deepEqual(response.incomplete_details, { reason: 'max_output_tokens' });
    assert.equal(response.output_text, 'Cut off mid');
  });

  test('models.list returns the OpenAI list shape', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      assert.equal(model.object, 'model');
      ids.push(model.id);
    }
    assert.deepEqual(ids, ['gpt-4o', 'gpt-4o-mini']);
    assert.equal(simulator.lastRequest()?.endpoint, 'list-models');
  });
});
