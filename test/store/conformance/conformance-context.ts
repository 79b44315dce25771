import type { NewApiKey } from '../../../src/domain/api-key.ts';
import type { NewChannel } from '../../../src/domain/channel.ts';
import type { UsageLogEntry } from '../../../src/domain/usage-log-entry.ts';
import type { Store } from '../../../src/store/store.ts';
import type { StoreHarness } from '../store-harness.ts';

export interface ConformanceContext {
  harness: StoreHarness;
  /** Opened fresh for every test on an empty database. Reassign it when a test reopens. */
  store: Store;
  clock: TestClock;
}

export interface TestClock {
  now: () => number;
  advance(milliseconds: number): void;
}

export const START_TIME = 1_700_000_000_000;

export function createTestClock(): TestClock {
  let time = START_TIME;
  return {
    now: () => time,
    advance(milliseconds) {
      time += milliseconds;
    },
  };
}

export const UPSTREAM_SECRET = 'sk-upstream-PLAINTEXT-4f1c9a7e2b';

export function newChannel(overrides: Partial<NewChannel> = {}): NewChannel {
  return {
    name: 'openai-main',
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    apiKeys: [UPSTREAM_SECRET],
    models: ['gpt-4o', 'gpt-4o-mini'],
    groups: ['default'],
    modelMap: { 'gpt-4o': 'gpt-4o-2024-08-06' },
    priority: 10,
    weight: 3,
    enabled: true,
    supportsResponses: true,
    allowedPrefixes: ['antigravity'],
    ...overrides,
  };
}

export function newKey(overrides: Partial<NewApiKey> = {}): NewApiKey {
  return {
    name: 'alice',
    group: 'default',
    keyHash: 'a'.repeat(64),
    keyHint: 'sk-abcd…wxyz',
    expiresAt: null,
    balanceMicros: null,
    allowedModels: null,
    allowedIps: null,
    enabled: true,
    limits: {},
    ...overrides,
  };
}

export function usageEntry(overrides: Partial<UsageLogEntry> = {}): UsageLogEntry {
  return {
    requestId: 'req_1',
    time: START_TIME,
    keyId: 'key_1',
    keyName: 'alice',
    group: 'default',
    model: 'gpt-4o',
    upstreamModel: 'gpt-4o-2024-08-06',
    channelId: 'ch_1',
    channelName: 'openai-main',
    clientProtocol: 'anthropic-messages',
    upstreamProtocol: 'openai-chat',
    surface: null,
    status: 200,
    errorCode: null,
    errorMessage: null,
    inputTokens: 1200,
    outputTokens: 340,
    cacheReadTokens: 1000,
    cacheWriteTokens: 0,
    reasoningTokens: 12,
    costMicros: 4_321,
    latencyMs: 812,
    ttftMs: 95,
    stream: true,
    warnings: ['unsupported:seed'],
    attempts: [
      { channelId: 'ch_0', channelName: 'backup', status: 429, errorCode: 'GW_UPSTREAM_RATE_LIMITED', latencyMs: 40 },
      { channelId: 'ch_1', channelName: 'openai-main', status: 200, errorCode: null, latencyMs: 772 },
    ],
    clientIp: '203.0.113.9',
    ...overrides,
  };
}
