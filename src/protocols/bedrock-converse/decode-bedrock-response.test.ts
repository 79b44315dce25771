import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeBedrockResponse } from './decode-bedrock-response.ts';

const reply = (fields: Record<string, unknown>) => ({
  output: { message: { role: 'assistant', content: [{ text: '1, 2, 3, ' }] } },
  usage: { inputTokens: 15, outputTokens: 10, totalTokens: 25 },
  metrics: { latencyMs: 100 },
  ...fields,
});

test('the stop sequence Claude names in additionalModelResponseFields reaches the canonical finish reason', () => {
  const decoded = decodeBedrockResponse(reply({ stopReason: 'stop_sequence', additionalModelResponseFields: { stop_sequence: 'END' } }), createFixedRuntime());
  assert.deepEqual(decoded.value.finishReason, { unified: 'stop', raw: 'stop_sequence', stopSequence: 'END' });
});

test('stop_sequence without the field (a model that does not say, or a null) is a plain stop', () => {
  for (const additional of [undefined, { stop_sequence: null }]) {
    const decoded = decodeBedrockResponse(
      reply({ stopReason: 'stop_sequence', ...(additional ? { additionalModelResponseFields: additional } : {}) }),
      createFixedRuntime(),
    );
    assert.deepEqual(decoded.value.finishReason, { unified: 'stop', raw: 'stop_sequence' });
  }
});

test('end_turn stays a stop without a sequence even if a stray field says one', () => {
  const decoded = decodeBedrockResponse(reply({ stopReason: 'end_turn', additionalModelResponseFields: { stop_sequence: 'END' } }), createFixedRuntime());
  assert.deepEqual(decoded.value.finishReason, { unified: 'stop', raw: 'end_turn' });
});
