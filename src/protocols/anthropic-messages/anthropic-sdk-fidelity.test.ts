import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import type { ChatResponse } from '../../core/chat-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { serveCannedReply, type CannedReply, type CannedRequest, type CannedServer } from '../../../test/helpers/serve-canned-reply.ts';
import { createAnthropicStreamEncoder } from './create-anthropic-stream-encoder.ts';
import { encodeAnthropicError } from './encode-anthropic-error.ts';
import { encodeAnthropicResponse } from './encode-anthropic-response.ts';

/**
 * Fidelity: the official SDK reads what our encoders write. A tiny local server answers
 * `/v1/messages` with the encoder's bytes; the assertions are on what the SDK hands its user.
 */

const signature = 'EqQBCkYIBxgCKkD+/=\u00e9==';

const streamEvents: StreamEvent[] = [
  { type: 'response-start', id: 'chatcmpl-1', model: 'some-model', createdAt: 0 },
  { type: 'usage', usage: { inputTokens: 130, outputTokens: 1, cacheReadTokens: 100, cacheWriteTokens: 10 } },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'The user wants ' },
  { type: 'reasoning-delta', id: 'r', delta: 'the weather.' },
  { type: 'reasoning-end', id: 'r', signature },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Let me ' },
  { type: 'text-delta', id: 't', delta: 'check.' },
  { type: 'text-end', id: 't' },
  { type: 'tool-call-start', id: 'c', callId: 'call.abc', name: 'get_weather' },
  { type: 'tool-call-delta', id: 'c', argumentsDelta: '{"city": "Pa' },
  { type: 'tool-call-delta', id: 'c', argumentsDelta: 'ris", "days": 2}' },
  { type: 'tool-call-end', id: 'c' },
  {
    type: 'response-end',
    finishReason: { unified: 'tool-calls' },
    usage: { inputTokens: 130, outputTokens: 57, cacheReadTokens: 100, cacheWriteTokens: 10 },
  },
];

const plainResponse: ChatResponse = {
  id: 'resp_1',
  model: 'some-model',
  createdAt: 0,
  content: [
    { type: 'reasoning', text: 'The user wants the weather.', signature },
    { type: 'text', text: 'Let me check.' },
    { type: 'tool-call', callId: 'call.abc', name: 'get_weather', arguments: '{"city":"Paris","days":2}' },
  ],
  finishReason: { unified: 'tool-calls' },
  usage: { inputTokens: 130, outputTokens: 57, cacheReadTokens: 100, cacheWriteTokens: 10 },
};

const expectedContent = [
  { type: 'thinking', thinking: 'The user wants the weather.', signature },
  { type: 'text', text: 'Let me check.' },
  { type: 'tool_use', id: 'call_abc', name: 'get_weather', input: { city: 'Paris', days: 2 } },
];

type Scenario = 'ok' | 'mid-stream-error' | 'http-error';

describe('@anthropic-ai/sdk reads our Anthropic encoding', () => {
  let server: CannedServer;
  let scenario: Scenario = 'ok';

  function reply(request: CannedRequest): CannedReply {
    const runtime = createFixedRuntime();
    if (scenario === 'http-error') {
      const encoded = encodeAnthropicError(new GatewayError('upstream_error', 'The upstream is overloaded.', { status: 529 }), 'req_9');
      return { status: encoded.status, contentType: 'application/json', headers: { 'request-id': 'req_9' }, body: JSON.stringify(encoded.body) };
    }
    if (!(request.body as { stream?: boolean }).stream) {
      return { contentType: 'application/json', body: JSON.stringify(encodeAnthropicResponse(plainResponse, runtime)) };
    }
    const encoder = createAnthropicStreamEncoder(runtime);
    const events: StreamEvent[] =
      scenario === 'ok'
        ? streamEvents
        : [...streamEvents.slice(0, 8), { type: 'error', error: new GatewayError('upstream_error', 'Overloaded', { upstreamType: 'overloaded_error' }) }];
    // One write per canonical event, as the relay does, so the SDK sees frames split across reads.
    const body = [...events.map((event) => encoder.push(event)), encoder.end()];
    return { contentType: 'text/event-stream', headers: { 'cache-control': 'no-cache' }, body };
  }

  before(async () => {
    server = await serveCannedReply(reply);
  });

  after(async () => {
    await server.close();
  });

  const client = () => new Anthropic({ baseURL: server.url, apiKey: 'x', maxRetries: 0 });
  const params = {
    model: 'some-model',
    max_tokens: 1024,
    messages: [{ role: 'user' as const, content: 'Weather in Paris?' }],
  };

  test('messages.stream().finalMessage() yields thinking with signature, text, tool input, stop reason and usage', async () => {
    scenario = 'ok';
    const message = await client().messages.stream(params).finalMessage();
    assert.equal(message.id, 'msg_0001');
    assert.equal(message.model, 'some-model');
    assert.deepEqual(
      message.content.map((block) => ({ ...block })),
      expectedContent,
    );
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.stop_sequence, null);
    assert.equal(message.usage.input_tokens, 20);
    assert.equal(message.usage.output_tokens, 57);
    assert.equal(message.usage.cache_read_input_tokens, 100);
    assert.equal(message.usage.cache_creation_input_tokens, 10);
  });

  test('messages.create (not streamed) yields the same message', async () => {
    scenario = 'ok';
    const message = await client().messages.create(params);
    assert.equal(message.id, 'msg_0001');
    assert.deepEqual(message.content, expectedContent);
    assert.equal(message.stop_reason, 'tool_use');
    assert.deepEqual(message.usage, { input_tokens: 20, output_tokens: 57, cache_creation_input_tokens: 10, cache_read_input_tokens: 100 });
  });

  test('an in-stream error surfaces as an APIError with the message', async () => {
    scenario = 'mid-stream-error';
    await assert.rejects(client().messages.stream(params).finalMessage(), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, `expected APIError, got ${String(error)}`);
      assert.match(error.message, /Overloaded/);
      return true;
    });
  });

  test('an encoded HTTP error surfaces with its status and Anthropic error type', async () => {
    scenario = 'http-error';
    await assert.rejects(client().messages.create(params), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, `expected APIError, got ${String(error)}`);
      assert.equal(error.status, 529);
      assert.deepEqual((error.error as { error: unknown }).error, {
        type: 'overloaded_error',
        message: 'The upstream is overloaded. (request id: req_9)',
      });
      return true;
    });
  });
});
