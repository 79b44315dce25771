import { test } from 'node:test';
import assert from 'node:assert/strict';
import { uncachedInputTokens } from './canonical-usage.ts';

test('uncached input excludes cache reads and writes and never goes negative', () => {
  assert.equal(uncachedInputTokens({ inputTokens: 100, outputTokens: 5, cacheReadTokens: 60, cacheWriteTokens: 10 }), 30);
  assert.equal(uncachedInputTokens({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 60 }), 0);
  assert.equal(uncachedInputTokens({ inputTokens: 10, outputTokens: 5 }), 10);
});
