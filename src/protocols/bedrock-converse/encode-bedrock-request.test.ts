import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatRequest } from '../../core/chat-request.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { checkConverseRequest } from '../../../test/simulator/converse-request-rules.ts';
import { encodeAnthropicRequest } from '../anthropic-messages/encode-anthropic-request.ts';
import { encodeBedrockRequest } from './encode-bedrock-request.ts';

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

function request(fields: Partial<ChatRequest>): ChatRequest {
  return { model: CLAUDE, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], stream: false, ...fields };
}

const encode = (fields: Partial<ChatRequest>) => encodeBedrockRequest(request(fields), createFixedRuntime());

describe('encodeBedrockRequest: thinking follows Claude’s rules, as on Anthropic’s API', () => {
  test('an effort gets the budget the Anthropic codec gives it, inside the client’s max tokens', () => {
    const { value, warnings } = encode({ maxOutputTokens: 4096, reasoning: { enabled: true, effort: 'medium' } });
    const anthropic = encodeAnthropicRequest(request({ maxOutputTokens: 4096, reasoning: { enabled: true, effort: 'medium' } }), createFixedRuntime()).value
      .body;
    assert.deepEqual(value.body.additionalModelRequestFields, { thinking: anthropic.thinking });
    assert.deepEqual(value.body.inferenceConfig, { maxTokens: anthropic.max_tokens });
    assert.deepEqual(value.body.inferenceConfig, { maxTokens: 4096 }, 'the client’s cap stands when the budget fits under it');
    assert.deepEqual(warnings, []);
    assert.equal(checkConverseRequest(value.body), undefined);
  });

  test('a budget under Claude’s minimum is raised to 1024, and a cap below the budget grows, both with a warning', () => {
    const { value, warnings } = encode({ maxOutputTokens: 512, reasoning: { enabled: true, budgetTokens: 500 } });
    assert.deepEqual(value.body.additionalModelRequestFields, { thinking: { type: 'enabled', budget_tokens: 1024 } });
    assert.deepEqual(value.body.inferenceConfig, { maxTokens: 1024 + 512 });
    assert.deepEqual(
      warnings.map((warning) => `${warning.type}:${warning.feature}`),
      ['clamped:reasoning.budgetTokens', 'clamped:max_tokens'],
    );
    assert.equal(checkConverseRequest(value.body), undefined);
  });

  test('without a client cap, thinking gets Anthropic’s default max tokens and no warning', () => {
    const { value, warnings } = encode({ reasoning: { enabled: true } });
    assert.deepEqual(value.body.inferenceConfig, { maxTokens: 8192 });
    assert.deepEqual(value.body.additionalModelRequestFields, { thinking: { type: 'enabled', budget_tokens: 2048 } });
    assert.deepEqual(warnings, []);
  });

  test('top_p from 0.95 to 1 stays with thinking on, as the Anthropic codec sends it; below, it goes with a warning', () => {
    for (const topP of [0.95, 0.98, 1]) {
      const fields: Partial<ChatRequest> = { maxOutputTokens: 4096, topP, reasoning: { enabled: true, effort: 'low' } };
      const { value, warnings } = encode(fields);
      const anthropic = encodeAnthropicRequest(request(fields), createFixedRuntime());
      assert.equal(anthropic.value.body.top_p, topP);
      assert.deepEqual(value.body.inferenceConfig, { maxTokens: 4096, topP });
      assert.deepEqual(warnings, anthropic.warnings);
      assert.deepEqual(warnings, []);
      assert.equal(checkConverseRequest(value.body), undefined);
    }
    const fields: Partial<ChatRequest> = { maxOutputTokens: 4096, topP: 0.9, temperature: 0.5, topK: 40, reasoning: { enabled: true, effort: 'low' } };
    const { value, warnings } = encode(fields);
    assert.deepEqual(value.body.inferenceConfig, { maxTokens: 4096 });
    assert.deepEqual(value.body.additionalModelRequestFields, { thinking: { type: 'enabled', budget_tokens: 1024 } });
    assert.deepEqual(
      warnings.map((warning) => `${warning.type}:${warning.feature}`),
      ['compatibility:temperature', 'compatibility:topP', 'compatibility:topK'],
    );
    assert.deepEqual(warnings, encodeAnthropicRequest(request(fields), createFixedRuntime()).warnings);
    assert.equal(checkConverseRequest(value.body), undefined);
  });

  test('without thinking, Claude’s sampling passes as asked (temperature over 1 clamped, as on Anthropic’s API)', () => {
    const { value, warnings } = encode({ temperature: 1.5, topP: 0.5, topK: 40 });
    assert.deepEqual(value.body.inferenceConfig, { temperature: 1, topP: 0.5 });
    assert.deepEqual(value.body.additionalModelRequestFields, { top_k: 40 });
    assert.deepEqual(warnings, [{ type: 'clamped', feature: 'temperature', from: 1.5, to: 1 }]);
  });

  test('effort "none" turns nothing on', () => {
    const { value } = encode({ reasoning: { enabled: true, effort: 'none' } });
    assert.equal(value.body.additionalModelRequestFields, undefined);
    assert.equal(value.body.inferenceConfig, undefined);
  });
});

describe('encodeBedrockRequest: stop sequences', () => {
  test('Claude is asked to name the sequence that matched (Converse alone says only "stop_sequence")', () => {
    const { value } = encode({ stopSequences: ['END'] });
    assert.deepEqual(value.body.inferenceConfig, { stopSequences: ['END'] });
    assert.deepEqual(value.body.additionalModelResponseFieldPaths, ['/stop_sequence']);
    assert.equal(checkConverseRequest(value.body), undefined);
  });

  test('other models are not asked for a Claude field', () => {
    const { value } = encodeBedrockRequest(request({ model: 'us.amazon.nova-pro-v1:0', stopSequences: ['END'] }), createFixedRuntime());
    assert.equal(value.body.additionalModelResponseFieldPaths, undefined);
  });
});

test('encodeBedrockRequest: unsigned reasoning in the history is dropped with a warning, never silently', () => {
  const { value, warnings } = encode({
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'What is 17 * 23?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '17 * 23 = 391.' },
          { type: 'text', text: '391.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'And plus 9?' }] },
    ],
  });
  assert.deepEqual((value.body.messages as Array<{ content: unknown[] }>)[1]!.content, [{ text: '391.' }]);
  assert.deepEqual(
    warnings.map((warning) => `${warning.type}:${warning.feature}`),
    ['unsupported:reasoning_history'],
  );
});
