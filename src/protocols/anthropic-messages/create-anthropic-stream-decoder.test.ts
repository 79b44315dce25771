import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createResponseAssembler } from '../shared/assemble-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { createAnthropicStreamDecoder } from './create-anthropic-stream-decoder.ts';

const sse = (event: string, data: unknown): SseMessage => ({ event, data: JSON.stringify(data) });

const signature = 'EqQBCkYIBxgCKkD+/=\u00e9==';

/** Shaped like a recorded Claude reply: thinking, text, then a tool call. */
const recorded: SseMessage[] = [
  sse('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_01XYZ',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 25, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 200 },
    },
  }),
  sse('ping', { type: 'ping' }),
  sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Need the ' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'weather.' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
  sse('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me check.' } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 1 }),
  sse('content_block_start', {
    type: 'content_block_start',
    index: 2,
    content_block: { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: {} },
  }),
  sse('content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'ris"}' } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 2 }),
  sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }),
  sse('message_stop', { type: 'message_stop' }),
];

function run(messages: SseMessage[], end = true): StreamEvent[] {
  const decoder = createAnthropicStreamDecoder(createFixedRuntime());
  const events = messages.flatMap((message) => decoder.push(message));
  return end ? [...events, ...decoder.end()] : events;
}

function errorOf(events: StreamEvent[]): GatewayError {
  const last = events.at(-1);
  assert.equal(last?.type, 'error');
  return (last as { error: GatewayError }).error;
}

describe('createAnthropicStreamDecoder', () => {
  test('thinking, text and tool use become the canonical block lifecycle', () => {
    assert.deepEqual(run(recorded), [
      { type: 'response-start', id: 'msg_01XYZ', model: 'claude-sonnet-4-6', createdAt: 1_700_000_000_000 },
      { type: 'usage', usage: { inputTokens: 225, outputTokens: 1, cacheReadTokens: 200, cacheWriteTokens: 0 } },
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: 'Need the ' },
      { type: 'reasoning-delta', id: '0', delta: 'weather.' },
      { type: 'reasoning-end', id: '0', signature },
      { type: 'text-start', id: '1' },
      { type: 'text-delta', id: '1', delta: 'Let me check.' },
      { type: 'text-end', id: '1' },
      { type: 'tool-call-start', id: '2', callId: 'toolu_01A', name: 'get_weather' },
      { type: 'tool-call-delta', id: '2', argumentsDelta: '{"city": "Pa' },
      { type: 'tool-call-delta', id: '2', argumentsDelta: 'ris"}' },
      { type: 'tool-call-end', id: '2' },
      {
        type: 'response-end',
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: { inputTokens: 225, outputTokens: 42, cacheReadTokens: 200, cacheWriteTokens: 0 },
      },
    ]);
  });

  test('the events assemble into the full message', () => {
    const assembler = createResponseAssembler();
    for (const event of run(recorded)) assembler.push(event);
    assert.deepEqual(assembler.result().content, [
      { type: 'reasoning', text: 'Need the weather.', signature },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-call', callId: 'toolu_01A', name: 'get_weather', arguments: '{"city": "Paris"}' },
    ]);
  });

  test('redacted thinking carries its data on reasoning-end; a stop sequence is kept', () => {
    const events = run([
      recorded[0]!,
      sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'opaque' } }),
      sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
      sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'stop_sequence', stop_sequence: '###' }, usage: { output_tokens: 3 } }),
      sse('message_stop', { type: 'message_stop' }),
    ]);
    assert.deepEqual(events.slice(2), [
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-end', id: '0', redactedData: 'opaque' },
      {
        type: 'response-end',
        finishReason: { unified: 'stop', raw: 'stop_sequence', stopSequence: '###' },
        usage: { inputTokens: 225, outputTokens: 3, cacheReadTokens: 200, cacheWriteTokens: 0 },
      },
    ]);
  });

  test('event: error becomes an upstream_error that keeps the upstream type', () => {
    const events = run([
      ...recorded.slice(0, 9),
      sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      ...recorded.slice(9),
    ]);
    const error = errorOf(events);
    assert.equal(error.code, 'upstream_error');
    assert.equal(error.message, 'Overloaded');
    assert.equal(error.upstreamType, 'overloaded_error');
    assert.equal(error.status, 529);
    assert.equal(events.filter((event) => event.type === 'response-end').length, 0, 'nothing after the error');
  });

  test('a stream that ends before message_stop closes open blocks and reports an error', () => {
    const events = run(recorded.slice(0, 9));
    assert.deepEqual(events.slice(-2, -1), [{ type: 'text-end', id: '1' }]);
    const error = errorOf(events);
    assert.equal(error.code, 'upstream_invalid_response');
    assert.match(error.message, /ended before message_stop/);
  });

  test('malformed JSON becomes upstream_invalid_response and stops the stream', () => {
    const decoder = createAnthropicStreamDecoder(createFixedRuntime());
    recorded.slice(0, 8).forEach((message) => decoder.push(message));
    const events = decoder.push({ event: 'content_block_delta', data: '{"type":"content_block_delta","index":1,' });
    assert.deepEqual(events.slice(0, 1), [{ type: 'text-end', id: '1' }]);
    assert.equal(errorOf(events).code, 'upstream_invalid_response');
    assert.deepEqual(decoder.push(recorded[8]!), []);
    assert.deepEqual(decoder.end(), []);
  });

  test('data-only events fall back to the payload type; pings and unknown events are ignored', () => {
    const events = run(recorded.map((message) => ({ data: message.data })).concat([]), false);
    assert.equal(events.at(-1)?.type, 'response-end');
    assert.deepEqual(
      run(
        [
          { event: 'ping', data: '{"type":"ping"}' },
          { event: 'future_event', data: '{}' },
        ],
        false,
      ),
      [],
    );
  });
});
