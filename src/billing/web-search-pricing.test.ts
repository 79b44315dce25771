import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelPrice } from '../domain/model-price.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import { computeCostMicros } from './compute-cost.ts';

const price: ModelPrice = {
  model: 'm',
  inputPerMillion: 3_000_000,
  outputPerMillion: 15_000_000,
  cacheReadPerMillion: null,
  cacheWritePerMillion: null,
  // $10 per 1,000 searches = 10,000 micro-USD a search.
  webSearchPerThousand: 10_000_000,
  updatedAt: 0,
};

test('issue 23 item 6: web searches are charged per search at webSearchPerThousand, times the group multiplier', () => {
  const tokens = computeCostMicros({ inputTokens: 1_000, outputTokens: 100 }, price);
  assert.equal(tokens, 4_500);
  assert.equal(computeCostMicros({ inputTokens: 1_000, outputTokens: 100, webSearchRequests: 3 }, price), 4_500 + 30_000);
  assert.equal(computeCostMicros({ inputTokens: 1_000, outputTokens: 100, webSearchRequests: 3 }, price, 2), 2 * (4_500 + 30_000));
  // No search price: searches are not charged; absurd counts are clamped like tokens.
  assert.equal(computeCostMicros({ inputTokens: 1_000, outputTokens: 100, webSearchRequests: 3 }, { ...price, webSearchPerThousand: null }), 4_500);
  assert.equal(computeCostMicros({ inputTokens: 0, outputTokens: 0, webSearchRequests: -5 }, price), 0);
});

test('issue 23 item 6: the codecs read the search count: Anthropic server_tool_use, Responses web_search_call items', () => {
  const context = { now: () => 0, generateId: (prefix: string) => `${prefix}1`, random: () => 0.5 };
  const anthropic = getCodec('anthropic-messages').decodeResponse(
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [{ type: 'text', text: 'found it' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5, server_tool_use: { web_search_requests: 2 } },
    },
    context as never,
  );
  assert.equal(anthropic.value.usage.webSearchRequests, 2);
  const responses = getCodec('openai-responses').decodeResponse(
    {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt',
      output: [
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        { type: 'web_search_call', id: 'ws_2', status: 'completed' },
        { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'found it' }] },
      ],
      usage: { input_tokens: 10, output_tokens: 5 },
    },
    context as never,
  );
  assert.equal(responses.value.usage.webSearchRequests, 2);
  // The passthrough lane's tap counts them from the final event.
  const tap = getCodec('openai-responses').createUsageTap();
  tap.observe({
    event: 'response.completed',
    data: JSON.stringify({ type: 'response.completed', response: { output: [{ type: 'web_search_call' }], usage: { input_tokens: 1, output_tokens: 1 } } }),
  } as never);
  assert.equal(tap.usage()?.webSearchRequests, 1);
});
