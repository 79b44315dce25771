import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import { UsageBatch } from './usage-batch.ts';

const full: UsageLogEntry = {
  requestId: 'req_1',
  time: 1_700_000_000_123,
  keyId: 'k1',
  keyName: 'key one',
  group: 'default',
  model: 'gpt',
  upstreamModel: 'gpt-up',
  channelId: 'c1',
  channelName: 'one',
  clientProtocol: 'openai-chat',
  upstreamProtocol: 'anthropic-messages',
  surface: 'alt',
  status: 200,
  errorCode: null,
  errorMessage: null,
  inputTokens: 12,
  outputTokens: 34,
  cacheReadTokens: 5,
  cacheWriteTokens: 6,
  reasoningTokens: 7,
  costMicros: 9_007_199_254_740_991,
  latencyMs: 42,
  ttftMs: 17,
  stream: true,
  warnings: ['unpriced'],
  attempts: [
    { channelId: 'c0', channelName: 'zero', status: 500, errorCode: 'upstream_error', latencyMs: 3 },
    { channelId: 'c9', channelName: 'nine', status: null, errorCode: 'circuit_open', latencyMs: 0 },
    { channelId: 'c1', channelName: 'one', status: 200, errorCode: null, latencyMs: 39 },
  ],
  clientIp: '127.0.0.1',
  userId: 'u1',
  paidBy: 'wallet',
  subscriptionId: null,
};

const refused: UsageLogEntry = {
  ...full,
  requestId: 'req_2',
  keyId: null,
  keyName: null,
  group: null,
  model: null,
  upstreamModel: null,
  channelId: null,
  channelName: null,
  upstreamProtocol: null,
  surface: null,
  status: 401,
  errorCode: 'invalid_api_key',
  errorMessage: 'no key',
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  costMicros: 0,
  ttftMs: null,
  stream: false,
  warnings: [],
  attempts: [],
  clientIp: null,
  userId: null,
  paidBy: null,
  subscriptionId: null,
};

test('rows come back out exactly as they went in (money to the last micro-dollar, nulls kept apart from 0)', () => {
  const batch = new UsageBatch(4);
  const single = { ...full, requestId: 'req_3', attempts: [full.attempts[2]!], warnings: [] };
  batch.push(full);
  batch.push(refused);
  batch.push(single);
  assert.equal(batch.length, 3);
  assert.deepEqual(batch.entries(), [full, refused, single]);
});

test("a reset batch is empty and reusable; it does not hand back the old rows' extras", () => {
  const batch = new UsageBatch(2);
  batch.push(full);
  batch.push(full);
  assert.equal(batch.full, true);
  batch.reset();
  assert.equal(batch.length, 0);
  batch.push(refused);
  assert.deepEqual(batch.entries(), [refused]);
});
