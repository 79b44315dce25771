import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { computeCostMicros } from '../../src/billing/compute-cost.ts';
import type { Usage } from '../../src/core/usage.ts';
import type { ModelPrice } from '../../src/domain/model-price.ts';
import { checkTokenClasses } from '../../src/ledger/check-token-classes.ts';
import { defaultPriceCatalogue } from '../../src/ledger/load-price-catalogue.ts';
import { priceFromUsd } from '../../src/ledger/price-input.ts';
import { decodeAnthropicUsage } from '../../src/protocols/anthropic-messages/convert-anthropic-usage.ts';
import { decodeBedrockUsage } from '../../src/protocols/bedrock-converse/decode-bedrock-response.ts';
import { decodeGeminiUsage } from '../../src/protocols/gemini-generate-content/convert-gemini-usage.ts';
import { convertOpenAiUsage } from '../../src/protocols/openai-chat/convert-openai-usage.ts';
import { convertOpenAiResponsesUsage } from '../../src/protocols/openai-responses/convert-openai-responses-usage.ts';

/** The shipped catalogue's price of `model`, as the cost function reads it. */
function catalogued(model: string): ModelPrice {
  const entry = defaultPriceCatalogue().models.find((candidate) => candidate.model === model);
  assert.ok(entry, `${model} is in the default catalogue`);
  const { model: _model, provider: _provider, ...figures } = entry;
  return { ...priceFromUsd(model, figures), updatedAt: 0 };
}

/** Raw usage as each upstream reports it → decoded by its codec → token-class rules → priced, to the micro-USD. */
const goldens: Array<{ name: string; protocol: string; model: string; decode: (raw: unknown) => Usage | undefined; raw: unknown; expected: number }> = [
  {
    name: 'Anthropic: 5-minute and 1-hour writes each at their price, reads at 0.1×, never the total written twice',
    protocol: 'anthropic-messages',
    model: 'claude-sonnet-4-5',
    decode: decodeAnthropicUsage,
    raw: {
      input_tokens: 1_000,
      cache_read_input_tokens: 20_000,
      cache_creation_input_tokens: 3_000,
      cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 2_000 },
      output_tokens: 500,
    },
    // 1,000 × $3 + 20,000 × $0.30 + 1,000 × $3.75 + 2,000 × $6 + 500 × $15, per million
    expected: 3_000 + 6_000 + 3_750 + 12_000 + 7_500,
  },
  {
    name: 'Vertex (Anthropic wire): only 1-hour writes',
    protocol: 'anthropic-messages',
    model: 'claude-sonnet-4-5@20250929',
    decode: decodeAnthropicUsage,
    raw: {
      input_tokens: 10,
      cache_creation_input_tokens: 1_000,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1_000 },
      output_tokens: 10,
    },
    expected: 30 + 6_000 + 150,
  },
  {
    name: 'OpenAI chat: cached_tokens inside prompt_tokens at the cached price',
    protocol: 'openai-chat',
    model: 'gpt-4o',
    decode: convertOpenAiUsage,
    raw: {
      prompt_tokens: 10_000,
      completion_tokens: 1_000,
      total_tokens: 11_000,
      prompt_tokens_details: { cached_tokens: 8_000 },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
    expected: 5_000 + 10_000 + 10_000,
  },
  {
    name: 'OpenAI Responses: input_tokens_details.cached_tokens; reasoning inside output, billed once',
    protocol: 'openai-responses',
    model: 'o4-mini',
    decode: (raw) => convertOpenAiResponsesUsage(raw),
    raw: {
      input_tokens: 4_000,
      input_tokens_details: { cached_tokens: 1_000 },
      output_tokens: 2_000,
      output_tokens_details: { reasoning_tokens: 1_500 },
      total_tokens: 6_000,
    },
    // 3,000 × $1.10 + 1,000 × $0.275 + 2,000 × $4.40
    expected: 3_300 + 275 + 8_800,
  },
  {
    name: 'Gemini: cachedContentTokenCount inside promptTokenCount; thoughts billed as output',
    protocol: 'gemini-generate-content',
    model: 'gemini-2.5-pro',
    decode: decodeGeminiUsage,
    raw: { promptTokenCount: 100_000, cachedContentTokenCount: 60_000, candidatesTokenCount: 2_000, thoughtsTokenCount: 3_000 },
    expected: 50_000 + 7_500 + 50_000,
  },
  {
    name: 'Gemini past 200k input tokens: the whole request at the long-context tier',
    protocol: 'gemini-generate-content',
    model: 'gemini-2.5-pro',
    decode: decodeGeminiUsage,
    raw: { promptTokenCount: 250_000, candidatesTokenCount: 1_000 },
    expected: 625_000 + 15_000,
  },
  {
    name: 'Bedrock Converse: cacheReadInputTokens and cacheWriteInputTokens added to inputTokens',
    protocol: 'bedrock-converse',
    model: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
    decode: decodeBedrockUsage,
    raw: { inputTokens: 500, cacheReadInputTokens: 10_000, cacheWriteInputTokens: 2_000, outputTokens: 300, totalTokens: 12_800 },
    expected: 1_500 + 3_000 + 7_500 + 4_500,
  },
];

describe('golden usage per protocol and upstream kind, priced to the micro-USD', () => {
  for (const golden of goldens) {
    test(golden.name, () => {
      const decoded = golden.decode(golden.raw);
      assert.ok(decoded);
      const checked = checkTokenClasses(decoded, golden.protocol, golden.raw);
      assert.deepEqual(checked.warnings, [], 'a well-formed report breaks no rule');
      assert.equal(computeCostMicros(checked.usage, catalogued(golden.model)), golden.expected);
    });
  }
});

describe('token-class rules', () => {
  test('negative, fractional and oversized classes are corrected down with a warning, never charged negative or twice', () => {
    const checked = checkTokenClasses(
      { inputTokens: 100, outputTokens: -5, cacheReadTokens: 90, cacheWriteTokens: 50, cacheWrite1hTokens: 80, reasoningTokens: 7.5 },
      'openai-chat',
    );
    assert.deepEqual(checked.usage, {
      inputTokens: 100,
      outputTokens: 0,
      cacheReadTokens: 90,
      cacheWriteTokens: 10,
      cacheWrite1hTokens: 10,
      reasoningTokens: 0,
    });
    assert.deepEqual(checked.warnings, [
      'ledger:not-a-count:outputTokens',
      'ledger:not-a-count:reasoningTokens',
      'ledger:cache-exceeds-input',
      'ledger:cache-write-classes',
      'ledger:reasoning-exceeds-output',
    ]);
    assert.ok(computeCostMicros(checked.usage, catalogued('claude-sonnet-4-5')) >= 0);
  });

  test("Anthropic's 5 m + 1 h split that does not add up to the total written is flagged", () => {
    const raw = {
      input_tokens: 1,
      cache_creation_input_tokens: 100,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 100 },
      output_tokens: 1,
    };
    const checked = checkTokenClasses(decodeAnthropicUsage(raw), 'anthropic-messages', raw);
    assert.ok(checked.warnings.includes('ledger:anthropic-cache-write-split'));
    // The total written (100) is billed once: 100 one-hour writes at most, never 200 writes.
    assert.equal(computeCostMicros(checked.usage, catalogued('claude-sonnet-4-5')), 3 + 600 + 15);
  });
});
