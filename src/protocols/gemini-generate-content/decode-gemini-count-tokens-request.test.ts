import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeGeminiCountTokensRequest, encodeGeminiCountTokensResponse } from './decode-gemini-count-tokens-request.ts';

test('countTokens accepts bare contents and a wrapped generateContentRequest', () => {
  const contents = [{ role: 'user', parts: [{ text: 'count me' }] }];
  const bare = decodeGeminiCountTokensRequest({ body: { contents }, pathModel: 'models/g' }, createFixedRuntime()).value;
  assert.deepEqual(bare.messages, [{ role: 'user', content: [{ type: 'text', text: 'count me' }] }]);
  const wrapped = decodeGeminiCountTokensRequest(
    { body: { generate_content_request: { model: 'models/g', contents, systemInstruction: { parts: [{ text: 's' }] } } }, pathModel: 'g' },
    createFixedRuntime(),
  ).value;
  assert.deepEqual(wrapped.system, [{ type: 'text', text: 's' }]);
  assert.equal(wrapped.model, 'g');
  assert.equal(wrapped.stream, false);
  assert.deepEqual(encodeGeminiCountTokensResponse(42), { totalTokens: 42 });
});
