import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertOpenAiResponsesUsage } from './convert-openai-responses-usage.ts';

test('image_generation tool calls in a Responses output are counted as images, not text', () => {
  const usage = convertOpenAiResponsesUsage({ input_tokens: 40, output_tokens: 12 }, [
    { type: 'image_generation_call', id: 'ig_1', status: 'completed', result: 'iVBORw0KGgo=', size: '1024x1024', quality: 'high' },
    { type: 'image_generation_call', id: 'ig_2', status: 'completed', result: 'iVBORw0KGgo=', size: '1024x1024', quality: 'high' },
    { type: 'image_generation_call', id: 'ig_3', status: 'failed', result: null },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'here' }] },
  ]);
  assert.deepEqual(usage, { inputTokens: 40, outputTokens: 12, images: { count: 2, size: '1024x1024', quality: 'high' } });
  assert.equal(convertOpenAiResponsesUsage({ input_tokens: 1, output_tokens: 1 }, [{ type: 'image_generation_call', result: 'x' }])?.images?.quality, 'auto');
  assert.equal(convertOpenAiResponsesUsage({ input_tokens: 1, output_tokens: 1 }, [])?.images, undefined);
});
