import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatResponse } from '../../core/chat-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeAnthropicResponse } from './decode-anthropic-response.ts';
import { encodeAnthropicResponse } from './encode-anthropic-response.ts';

const signature = 'EqQBCkYIBxgCKkD+/=\u00e9==';

const upstreamMessage = {
  id: 'msg_01abc',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [
    { type: 'thinking', thinking: 'Paris first.', signature },
    { type: 'text', text: 'Checking both.', citations: null },
    { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Rome' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: {
    input_tokens: 10,
    output_tokens: 20,
    cache_creation_input_tokens: 5,
    cache_read_input_tokens: 100,
    cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 0 },
    service_tier: 'standard',
  },
};

describe('Anthropic responses', () => {
  test('decode: content, stop reason and cache usage in canonical terms', () => {
    const { value, warnings } = decodeAnthropicResponse(upstreamMessage, createFixedRuntime());
    assert.deepEqual(value, {
      id: 'msg_01abc',
      model: 'claude-sonnet-4-6',
      createdAt: 1_700_000_000_000,
      content: [
        { type: 'reasoning', text: 'Paris first.', signature },
        { type: 'text', text: 'Checking both.' },
        { type: 'tool-call', callId: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool-call', callId: 'toolu_02', name: 'get_weather', arguments: '{"city":"Rome"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: { inputTokens: 115, outputTokens: 20, cacheReadTokens: 100, cacheWriteTokens: 5, cacheWrite1hTokens: 0 },
    });
    assert.deepEqual(warnings, []);
  });

  test('round trip: decode then encode gives back the same message (signature byte-exact, cache usage split back)', () => {
    const runtime = createFixedRuntime();
    const encoded = encodeAnthropicResponse(decodeAnthropicResponse(upstreamMessage, runtime).value, runtime);
    assert.deepEqual(encoded, {
      ...upstreamMessage,
      content: upstreamMessage.content.map((block) => (block.type === 'text' ? { type: 'text', text: block.text } : block)),
      usage: { input_tokens: 10, output_tokens: 20, cache_creation_input_tokens: 5, cache_read_input_tokens: 100 },
    });
  });

  test('stop reasons decode to unified values, keeping the stop sequence', () => {
    const reason = (stop_reason: unknown, stop_sequence: unknown = null) =>
      decodeAnthropicResponse({ ...upstreamMessage, content: [], stop_reason, stop_sequence }, createFixedRuntime()).value.finishReason;
    assert.deepEqual(reason('end_turn'), { unified: 'stop', raw: 'end_turn' });
    assert.deepEqual(reason('pause_turn'), { unified: 'stop', raw: 'pause_turn' });
    assert.deepEqual(reason('stop_sequence', '###'), { unified: 'stop', raw: 'stop_sequence', stopSequence: '###' });
    assert.deepEqual(reason('max_tokens'), { unified: 'length', raw: 'max_tokens' });
    assert.deepEqual(reason('model_context_window_exceeded'), { unified: 'length', raw: 'model_context_window_exceeded' });
    assert.deepEqual(reason('refusal'), { unified: 'content-filter', raw: 'refusal' });
    assert.deepEqual(reason('something_new'), { unified: 'other', raw: 'something_new' });
  });

  const canonical = (extra: Partial<ChatResponse>): ChatResponse => ({
    id: 'chatcmpl-xyz',
    model: 'gpt-4o',
    createdAt: 0,
    content: [{ type: 'text', text: 'Hi' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: 50, outputTokens: 7, cacheReadTokens: 30 },
    ...extra,
  });

  test('encode from a foreign upstream: msg_ id, uncached input tokens, no foreign raw reason', () => {
    const encoded = encodeAnthropicResponse(canonical({}), createFixedRuntime());
    assert.deepEqual(encoded, {
      id: 'msg_0001',
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      content: [{ type: 'text', text: 'Hi' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 30 },
    });
  });

  test('encode stop reasons from unified values', () => {
    const stop = (finishReason: ChatResponse['finishReason'], content: ChatResponse['content'] = []) => {
      const encoded = encodeAnthropicResponse(canonical({ finishReason, content }), createFixedRuntime());
      return [encoded.stop_reason, encoded.stop_sequence];
    };
    assert.deepEqual(stop({ unified: 'stop', stopSequence: 'END' }), ['stop_sequence', 'END']);
    assert.deepEqual(stop({ unified: 'length', raw: 'MAX_TOKENS' }), ['max_tokens', null]);
    assert.deepEqual(stop({ unified: 'tool-calls' }), ['tool_use', null]);
    assert.deepEqual(stop({ unified: 'content-filter', raw: 'SAFETY' }), ['refusal', null]);
    assert.deepEqual(stop({ unified: 'other' }), ['end_turn', null]);
    assert.deepEqual(stop({ unified: 'error' }), ['end_turn', null]);
    // Gemini says STOP after a function call; Claude Code only runs tools on tool_use.
    assert.deepEqual(stop({ unified: 'stop', raw: 'STOP' }, [{ type: 'tool-call', callId: 'c', name: 'f', arguments: '{}' }]), ['tool_use', null]);
  });

  test('encode: foreign tool ids sanitised, unsigned reasoning shown with an empty signature, bad JSON arguments kept', () => {
    const encoded = encodeAnthropicResponse(
      canonical({
        content: [
          { type: 'reasoning', text: 'thinking out loud' },
          { type: 'tool-call', callId: 'call:abc.1', name: 'f', arguments: '{"a":' },
          { type: 'tool-call', callId: '', name: 'g', arguments: '' },
        ],
        finishReason: { unified: 'tool-calls' },
      }),
      createFixedRuntime(),
    );
    assert.deepEqual(encoded.content, [
      { type: 'thinking', thinking: 'thinking out loud', signature: '' },
      { type: 'tool_use', id: 'call_abc_1', name: 'f', input: { raw: '{"a":' } },
      { type: 'tool_use', id: 'toolu_0001', name: 'g', input: {} },
    ]);
    for (const block of encoded.content) if (block.type === 'tool_use') assert.match(block.id, /^[a-zA-Z0-9_-]+$/);
  });

  test('decode rejects junk with upstream_invalid_response, and warns on untranslatable blocks', () => {
    for (const junk of [null, 'text', { content: 'x' }]) {
      assert.throws(
        () => decodeAnthropicResponse(junk, createFixedRuntime()),
        (error: unknown) => error instanceof GatewayError && error.code === 'upstream_invalid_response',
      );
    }
    const { value, warnings } = decodeAnthropicResponse(
      {
        ...upstreamMessage,
        content: [
          { type: 'web_search_tool_result', content: [] },
          { type: 'text', text: 'ok' },
        ],
      },
      createFixedRuntime(),
    );
    assert.deepEqual(value.content, [{ type: 'text', text: 'ok' }]);
    assert.equal(warnings.length, 1);
  });

  test('usage without cache fields keeps them absent', () => {
    const { value } = decodeAnthropicResponse({ ...upstreamMessage, usage: { input_tokens: 3, output_tokens: 4 } }, createFixedRuntime());
    assert.deepEqual(value.usage, { inputTokens: 3, outputTokens: 4 });
  });
});
