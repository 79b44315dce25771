import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countDeltaChars } from './count-delta-chars.ts';

test('counts only the generated text of an event, escapes included, not the JSON around it', () => {
  assert.equal(countDeltaChars('openai-chat', '{"id":"x","choices":[{"delta":{"content":"Hel\\"lo"}}]}'), 7);
  assert.equal(countDeltaChars('openai-chat', '{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"{\\"a\\":1}"}}]}}]}'), 9);
  assert.equal(countDeltaChars('anthropic-messages', '{"type":"content_block_delta","delta":{"type":"text_delta","text":"Hi"}}'), 2);
  assert.equal(countDeltaChars('gemini-generate-content', '{"candidates":[{"content":{"parts":[{"text":"ab"},{"text":"cd"}]}}]}'), 4);
  assert.equal(countDeltaChars('openai-responses', '{"type":"response.output_text.delta","delta":"xyz"}'), 3);
  assert.equal(countDeltaChars('openai-chat', '{"choices":[],"usage":{"prompt_tokens":3}}'), 0);
});
