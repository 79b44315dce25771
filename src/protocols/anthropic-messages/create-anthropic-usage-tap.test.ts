import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnthropicUsageTap } from './create-anthropic-usage-tap.ts';

test('the usage tap reads message_start and message_delta only, cumulatively', () => {
  const tap = createAnthropicUsageTap();
  assert.equal(tap.usage(), undefined);
  tap.observe({
    event: 'message_start',
    data: JSON.stringify({
      type: 'message_start',
      message: { id: 'msg_1', usage: { input_tokens: 25, output_tokens: 1, cache_creation_input_tokens: 10, cache_read_input_tokens: 200 } },
    }),
  });
  // A text delta that merely looks like usage must not be parsed as usage.
  tap.observe({ event: 'content_block_delta', data: '{"type":"message_delta","usage":{"output_tokens":999}}' });
  tap.observe({ event: 'content_block_delta', data: 'not json at all' });
  tap.observe({ event: 'message_delta', data: '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":42}}' });
  assert.deepEqual(tap.usage(), { inputTokens: 235, outputTokens: 42, cacheReadTokens: 200, cacheWriteTokens: 10 });
  tap.observe({ event: 'message_delta', data: '{broken' });
  assert.deepEqual(tap.usage(), { inputTokens: 235, outputTokens: 42, cacheReadTokens: 200, cacheWriteTokens: 10 });
});

test('message_delta may override input and cache counts', () => {
  const tap = createAnthropicUsageTap();
  tap.observe({ event: 'message_start', data: '{"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}' });
  tap.observe({
    event: 'message_delta',
    data: '{"type":"message_delta","usage":{"output_tokens":7,"input_tokens":50,"cache_read_input_tokens":30}}',
  });
  assert.deepEqual(tap.usage(), { inputTokens: 80, outputTokens: 7, cacheReadTokens: 30 });
});
