import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { StreamEvent } from '../../core/stream-event.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { withCannedReply, type CannedReply } from '../../../test/helpers/serve-canned-reply.ts';
import { openaiChatCodec } from './index.ts';

function encodeStream(events: StreamEvent[], includeUsage: boolean): string {
  const encoder = openaiChatCodec.createStreamEncoder(createFixedRuntime(), { includeUsage });
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

function withClient<T>(reply: CannedReply, run: (client: OpenAI) => Promise<T>): Promise<T> {
  return withCannedReply(reply, (server) => run(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x', maxRetries: 0 })));
}

const toolStream: StreamEvent[] = [
  { type: 'response-start', id: 'chatcmpl-abc', model: 'gpt-test', createdAt: 1_700_000_000_000 },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Checking ' },
  { type: 'text-delta', id: 't', delta: 'both.' },
  { type: 'text-end', id: 't' },
  { type: 'tool-call-start', id: 'a', callId: 'call_1', name: 'get_weather' },
  { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', id: 'a', argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', id: 'a' },
  { type: 'tool-call-start', id: 'b', callId: 'call_2', name: 'get_time' },
  { type: 'tool-call-delta', id: 'b', argumentsDelta: '{"tz":"CET"}' },
  { type: 'tool-call-end', id: 'b' },
  { type: 'usage', usage: { inputTokens: 20, outputTokens: 9, cacheReadTokens: 4 } },
  { type: 'response-end', finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
];

describe('openai SDK reads what the chat encoders write', () => {
  test('stream: finalChatCompletion accumulates text, parallel tool calls and usage', async () => {
    await withClient({ contentType: 'text/event-stream', body: encodeStream(toolStream, true) }, async (client) => {
      const stream = client.chat.completions.stream({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'weather and time in Paris?' }],
        stream_options: { include_usage: true },
      });
      const completion = await stream.finalChatCompletion();
      assert.equal(completion.id, 'chatcmpl-abc');
      const choice = completion.choices[0];
      assert.ok(choice);
      assert.equal(choice.finish_reason, 'tool_calls');
      assert.equal(choice.message.content, 'Checking both.');
      assert.deepEqual(
        choice.message.tool_calls?.map((call) => call.type === 'function' && [call.id, call.function.name, call.function.arguments]),
        [
          ['call_1', 'get_weather', '{"city":"Paris"}'],
          ['call_2', 'get_time', '{"tz":"CET"}'],
        ],
      );
      assert.equal(completion.usage?.prompt_tokens, 20);
      assert.equal(completion.usage?.completion_tokens, 9);
      assert.equal(completion.usage?.prompt_tokens_details?.cached_tokens, 4);
    });
  });

  test('stream without include_usage still completes with finish_reason length', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'chatcmpl-x', model: 'gpt-test', createdAt: 1_700_000_000_000 },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'hmm' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'cut off' },
      { type: 'text-end', id: 't' },
      { type: 'response-end', finishReason: { unified: 'length' }, usage: { inputTokens: 1, outputTokens: 2 } },
    ];
    await withClient({ contentType: 'text/event-stream', body: encodeStream(events, false) }, async (client) => {
      const completion = await client.chat.completions.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'go' }] }).finalChatCompletion();
      assert.equal(completion.choices[0]?.finish_reason, 'length');
      assert.equal(completion.choices[0]?.message.content, 'cut off');
    });
  });

  test('stream: an in-stream error surfaces as an APIError with our message', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'chatcmpl-x', model: 'gpt-test', createdAt: 1_700_000_000_000 },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'par' },
      { type: 'error', error: new GatewayError('upstream_error', 'The upstream reset the connection.') },
    ];
    await withClient({ contentType: 'text/event-stream', body: encodeStream(events, true) }, async (client) => {
      const stream = client.chat.completions.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'go' }] });
      await assert.rejects(stream.finalChatCompletion(), (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError);
        assert.match(error.message, /reset the connection/);
        return true;
      });
    });
  });

  test('non-stream create parses encodeResponse, and encodeError becomes a typed SDK error', async () => {
    const body = openaiChatCodec.encodeResponse(
      {
        id: 'msg_foreign',
        model: 'gpt-test',
        createdAt: 1_700_000_000_000,
        content: [
          { type: 'text', text: 'Hello' },
          { type: 'tool-call', callId: 'call_9', name: 'f', arguments: '{"a":1}' },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: { inputTokens: 5, outputTokens: 3, reasoningTokens: 1 },
      },
      createFixedRuntime(),
    );
    await withClient({ contentType: 'application/json', body: JSON.stringify(body) }, async (client) => {
      const completion = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(completion.id, 'chatcmpl-0001');
      assert.equal(completion.choices[0]?.message.content, 'Hello');
      assert.equal(completion.choices[0]?.finish_reason, 'tool_calls');
      assert.equal(completion.usage?.completion_tokens_details?.reasoning_tokens, 1);
    });
    const failure = openaiChatCodec.encodeError(new GatewayError('model_not_found', 'No model named x.', { param: 'model' }), 'req_1');
    await withClient({ status: failure.status, contentType: 'application/json', body: JSON.stringify(failure.body) }, async (client) => {
      await assert.rejects(client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] }), (error: unknown) => {
        assert.ok(error instanceof OpenAI.NotFoundError);
        assert.equal(error.code, 'model_not_found');
        assert.equal(error.param, 'model');
        assert.match(error.message, /No model named x\. \(request id: req_1\)/);
        return true;
      });
    });
  });
});
