import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeGeminiKeys } from './normalize-gemini-keys.ts';

test('snake_case keys become camelCase, except inside caller-owned values', () => {
  const input = {
    system_instruction: { parts: [{ text: 'x' }] },
    contents: [{ parts: [{ function_call: { name: 'f', args: { user_id: 1 } } }, { function_response: { name: 'f', response: { exit_code: 0 } } }] }],
    tools: [{ function_declarations: [{ name: 'f', parameters_json_schema: { properties: { user_id: {} } } }] }],
    generation_config: { response_json_schema: { properties: { a_b: {} } } },
  };
  assert.deepEqual(normalizeGeminiKeys(input), {
    systemInstruction: { parts: [{ text: 'x' }] },
    contents: [{ parts: [{ functionCall: { name: 'f', args: { user_id: 1 } } }, { functionResponse: { name: 'f', response: { exit_code: 0 } } }] }],
    tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: { properties: { user_id: {} } } }] }],
    generationConfig: { responseJsonSchema: { properties: { a_b: {} } } },
  });
});

test('camelCase input comes back as the same object; camelCase wins over a duplicate snake_case key', () => {
  const camel = { contents: [{ role: 'user', parts: [{ text: 'a_b' }] }], generationConfig: { topK: 1 } };
  assert.equal(normalizeGeminiKeys(camel), camel);
  assert.deepEqual(normalizeGeminiKeys({ topK: 1, top_k: 2 }), { topK: 1 });
  const hostile = JSON.parse('{"__proto__":{"polluted":true},"text":"x"}') as unknown;
  const normalized = normalizeGeminiKeys(hostile) as Record<string, unknown>;
  assert.deepEqual(normalized, { text: 'x' });
  assert.equal(Object.getPrototypeOf(normalized), Object.prototype);
});
