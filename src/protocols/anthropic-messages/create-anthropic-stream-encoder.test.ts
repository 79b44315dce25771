import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { createAnthropicStreamEncoder } from './create-anthropic-stream-encoder.ts';

function encode(events: StreamEvent[]): string {
  const encoder = createAnthropicStreamEncoder(createFixedRuntime());
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

const frame = (event: string, data: string): string => `event: ${event}\ndata: ${data}\n\n`;

/** Every frame names its event, and the data's type equals that name. */
function assertWellFramed(bytes: string): void {
  for (const chunk of bytes.split('\n\n').filter((part) => part !== '')) {
    const match = /^event: (\S+)\ndata: (.*)$/.exec(chunk);
    assert.ok(match, `bad frame ${JSON.stringify(chunk)}`);
    assert.equal((JSON.parse(match[2]!) as { type: string }).type, match[1]);
  }
}

describe('createAnthropicStreamEncoder', () => {
  test('an OpenAI-style stream (usage only at the end) becomes the exact Anthropic sequence', () => {
    const bytes = encode([
      { type: 'response-start', id: 'chatcmpl-1', model: 'gpt-4o', createdAt: 0 },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Hmm.' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hello' },
      { type: 'text-delta', id: 't', delta: '' },
      { type: 'text-end', id: 't' },
      { type: 'tool-call-start', id: 'c0', callId: 'call_abc', name: 'get_weather' },
      { type: 'tool-call-delta', id: 'c0', argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', id: 'c0', argumentsDelta: '"Paris"}' },
      { type: 'tool-call-end', id: 'c0' },
      {
        type: 'response-end',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: { inputTokens: 120, outputTokens: 42, cacheReadTokens: 100 },
      },
    ]);
    assert.equal(
      bytes,
      frame(
        'message_start',
        '{"type":"message_start","message":{"id":"msg_0001","type":"message","role":"assistant","model":"gpt-4o","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}',
      ) +
        frame('ping', '{"type":"ping"}') +
        frame('content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}') +
        frame('content_block_delta', '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hmm."}}') +
        frame('content_block_stop', '{"type":"content_block_stop","index":0}') +
        frame('content_block_start', '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}') +
        frame('content_block_delta', '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello"}}') +
        frame('content_block_stop', '{"type":"content_block_stop","index":1}') +
        frame(
          'content_block_start',
          '{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"call_abc","name":"get_weather","input":{}}}',
        ) +
        frame('content_block_delta', '{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\":"}}') +
        frame('content_block_delta', '{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\\"Paris\\"}"}}') +
        frame('content_block_stop', '{"type":"content_block_stop","index":2}') +
        frame(
          'message_delta',
          '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":42,"input_tokens":20,"cache_read_input_tokens":100}}',
        ) +
        frame('message_stop', '{"type":"message_stop"}'),
    );
    assertWellFramed(bytes);
  });

  test('an Anthropic-style stream: input usage in message_start, signature_delta at reasoning end, redacted thinking', () => {
    const signature = 'EqQBCkYIBxgCKkD+/=';
    const bytes = encode([
      { type: 'response-start', id: 'msg_01XYZ', model: 'claude-sonnet-4-6', createdAt: 0 },
      { type: 'usage', usage: { inputTokens: 225, outputTokens: 1, cacheReadTokens: 200, cacheWriteTokens: 0 } },
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: 'Think.' },
      { type: 'reasoning-end', id: '0', signature },
      { type: 'reasoning-start', id: '1' },
      { type: 'reasoning-end', id: '1', redactedData: 'opaque' },
      { type: 'text-start', id: '2' },
      { type: 'text-delta', id: '2', delta: 'Hi ###' },
      { type: 'text-end', id: '2' },
      {
        type: 'response-end',
        finishReason: { unified: 'stop', raw: 'stop_sequence', stopSequence: '###' },
        usage: { inputTokens: 225, outputTokens: 9, cacheReadTokens: 200, cacheWriteTokens: 0 },
      },
    ]);
    assert.equal(
      bytes,
      frame(
        'message_start',
        '{"type":"message_start","message":{"id":"msg_01XYZ","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":200}}}',
      ) +
        frame('ping', '{"type":"ping"}') +
        frame('content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}') +
        frame('content_block_delta', '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Think."}}') +
        frame('content_block_delta', `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"${signature}"}}`) +
        frame('content_block_stop', '{"type":"content_block_stop","index":0}') +
        frame('content_block_start', '{"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"opaque"}}') +
        frame('content_block_stop', '{"type":"content_block_stop","index":1}') +
        frame('content_block_start', '{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}') +
        frame('content_block_delta', '{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Hi ###"}}') +
        frame('content_block_stop', '{"type":"content_block_stop","index":2}') +
        frame(
          'message_delta',
          '{"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"###"},"usage":{"output_tokens":9,"input_tokens":25,"cache_creation_input_tokens":0,"cache_read_input_tokens":200}}',
        ) +
        frame('message_stop', '{"type":"message_stop"}'),
    );
  });

  test('a new block arriving while another is open closes the open one first', () => {
    const bytes = encode([
      { type: 'response-start', id: 'msg_1', model: 'm', createdAt: 0 },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'a' },
      { type: 'tool-call-start', id: 'c', callId: 'call.9', name: 'f' },
      { type: 'tool-call-end', id: 'c' },
      { type: 'text-end', id: 't' },
      { type: 'response-end', finishReason: { unified: 'stop' } },
    ]);
    const names = [...bytes.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);
    assert.deepEqual(names, [
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    assert.match(bytes, /"index":1,"content_block":\{"type":"tool_use","id":"call_9"/);
    // Tool calls force tool_use even when the upstream said stop; no usage known → only output_tokens.
    assert.match(bytes, /"delta":\{"stop_reason":"tool_use","stop_sequence":null\},"usage":\{"output_tokens":0\}/);
    assertWellFramed(bytes);
  });

  test('an error emits event: error and nothing after it', () => {
    const encoder = createAnthropicStreamEncoder(createFixedRuntime());
    let bytes = '';
    bytes += encoder.push({ type: 'response-start', id: 'msg_1', model: 'm', createdAt: 0 });
    bytes += encoder.push({ type: 'text-start', id: 't' });
    const tail =
      encoder.push({ type: 'error', error: new GatewayError('upstream_error', 'Overloaded', { status: 529, upstreamType: 'overloaded_error' }) }) +
      encoder.push({ type: 'text-delta', id: 't', delta: 'late' }) +
      encoder.push({ type: 'response-end', finishReason: { unified: 'stop' } }) +
      encoder.end();
    assert.equal(tail, frame('error', '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'));
    assert.match(bytes, /content_block_start/);
    const timeout = encode([{ type: 'error', error: new GatewayError('upstream_timeout', 'The upstream took too long.') }]);
    assert.equal(timeout, frame('error', '{"type":"error","error":{"type":"timeout_error","message":"The upstream took too long."}}'));
  });
});
