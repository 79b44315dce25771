import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { RateLimiter } from '../billing/rate-limiter.ts';
import type { SpendHold } from '../billing/balance-meter.ts';
import { GatewayError } from '../core/gateway-error.ts';
import { createMemoryKv } from '../kv/create-memory-kv.ts';
import { ChannelHealth } from '../relay/routing/channel-health.ts';
import { buildSnapshot } from '../snapshot/snapshot.ts';
import { hashApiKey } from '../access/hash-api-key.ts';
import type { ApiKey } from '../domain/api-key.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../relay/channels/upstream-client.ts';
import { createFixedRuntime } from '../../test/helpers/fixed-runtime.ts';
import { fakeClient, fakeUpstreamResponse } from '../../test/helpers/relay-fakes.ts';
import type { GenerationRequest } from './generation-request.ts';
import { runGeneration, type GenerationDeps } from './run-generation.ts';

const SECRET = 'sk-test-0123456789';

function key(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_1',
    name: 'tester',
    group: 'default',
    keyHash: hashApiKey(SECRET),
    keyHint: 'sk-t…6789',
    expiresAt: null,
    balanceMicros: null,
    spentMicros: 0,
    allowedModels: null,
    allowedIps: null,
    enabled: true,
    limits: {},
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

const anthropicChannel: Channel = {
  id: 'ch_1',
  name: 'claude',
  provider: 'anthropic',
  baseUrl: 'http://claude.test',
  apiKeys: ['sk-up'],
  models: ['smart'],
  groups: ['default'],
  modelMap: { smart: 'claude-x' },
  priority: 0,
  weight: 1,
  enabled: true,
  supportsResponses: false,
  allowedPrefixes: [],
  createdAt: 0,
  updatedAt: 0,
};

const anthropicReply = JSON.stringify({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [{ type: 'text', text: 'Hello' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 12, output_tokens: 3 },
});

/** The pipeline's dependencies with no web framework, database or network: all in memory. */
function pipeline(apiKey: ApiKey, replies: Array<() => UpstreamResponse>) {
  const runtime = createFixedRuntime();
  const rows: UsageLogEntry[] = [];
  const sent: UpstreamRequest[] = [];
  const settled: number[] = [];
  const snapshot = buildSnapshot({
    keys: [apiKey],
    groups: [{ name: 'default', description: '', priceMultiplier: 1, billing: 'balance', allowedFeatures: [], createdAt: 0 }],
    channels: [anthropicChannel],
    prices: [{ model: 'smart', inputPerMillion: 1_000_000, outputPerMillion: 2_000_000, cacheReadPerMillion: null, cacheWritePerMillion: null, updatedAt: 0 }],
    loadedAt: 0,
  });
  const deps: GenerationDeps = {
    snapshot: { current: snapshot },
    access: {
      rateLimiter: new RateLimiter(createMemoryKv({ now: runtime.now }), runtime.now),
      balances: {
        hold: async (): Promise<SpendHold> => ({ settle: async (cost: number) => void settled.push(cost) }) as SpendHold,
      } as unknown as GenerationDeps['access']['balances'],
      billing: {
        hold: async () => ({ paidBy: null, subscriptionId: null, userId: null, settle: async (cost: number) => void settled.push(cost) }),
      } as unknown as GenerationDeps['access']['billing'],
      strictPricing: false,
    },
    relay: {
      upstream: {
        async send(request: UpstreamRequest) {
          sent.push(request);
          const next = replies.shift();
          if (!next) throw new Error('unexpected upstream call');
          return next();
        },
      } as unknown as UpstreamClient,
      runtime,
      logger: pino({ level: 'silent' }),
      health: new ChannelHealth(runtime.now),
      streams: { open: 0 },
      retryStatuses: new Set([429, 500, 502, 503, 504, 529]),
      maxAttempts: 3,
      totalTimeoutMs: 5_000,
      maxRetryWaitMs: 0,
      keepAliveMs: 60_000,
    },
    usageWriter: { record: (row) => void rows.push(row) },
    runtime,
    logger: pino({ level: 'silent' }),
  };
  return { deps, rows, sent, settled };
}

function chatRequest(body: unknown, headers: Record<string, string> = { authorization: `Bearer ${SECRET}` }): GenerationRequest {
  return {
    requestId: 'req_1',
    route: { protocol: 'openai-chat', credentials: 'bearer', surface: null },
    body,
    rawBody: JSON.stringify(body),
    credentials: { headers, query: {}, path: '/v1/chat/completions', clientIp: '127.0.0.1' },
  };
}

function connection() {
  const client = fakeClient();
  let takenOver = 0;
  return {
    client,
    get takenOver() {
      return takenOver;
    },
    takeOver() {
      takenOver += 1;
      return client.writer;
    },
  };
}

test('a request refused for its key throws for the framework to render, before the reply is taken over, and writes no usage row', async () => {
  const { deps, rows } = pipeline(key(), []);
  const reply = connection();
  await assert.rejects(
    runGeneration(deps, chatRequest({ model: 'smart', messages: [] }, {}), reply),
    (error: unknown) => error instanceof GatewayError && error.status === 401,
  );
  assert.equal(reply.takenOver, 0);
  // Anyone can send these: they are counted in the metrics by the framework, not logged per request.
  assert.equal(rows.length, 0);
});

test('a request refused after its key is known throws before the take-over and is recorded', async () => {
  const { deps, rows } = pipeline(key(), []);
  const reply = connection();
  await assert.rejects(runGeneration(deps, chatRequest({ messages: [] }), reply), (error: unknown) => error instanceof GatewayError && error.status === 400);
  assert.equal(reply.takenOver, 0);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]?.status, 400);
  assert.equal(typeof rows[0]?.keyId, 'string');
});

test('a translated request is admitted, relayed, settled and recorded as one row', async () => {
  const { deps, rows, sent, settled } = pipeline(key(), [() => fakeUpstreamResponse(200, anthropicReply)]);
  const reply = connection();
  await runGeneration(deps, chatRequest({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }), reply);
  assert.equal(reply.takenOver, 1);
  assert.equal(JSON.parse(reply.client.response.text).choices[0].message.content, 'Hello');
  assert.equal(JSON.parse(sent[0]?.body ?? '{}').model, 'claude-x');
  const row = rows[0] as UsageLogEntry;
  assert.equal(rows.length, 1);
  assert.equal(row.status, 200);
  assert.equal(row.model, 'smart');
  assert.equal(row.upstreamModel, 'claude-x');
  assert.equal(row.channelName, 'claude');
  assert.equal(row.clientProtocol, 'openai-chat');
  assert.equal(row.upstreamProtocol, 'anthropic-messages');
  assert.equal(row.keyName, 'tester');
  assert.equal(row.inputTokens, 12);
  assert.equal(row.outputTokens, 3);
  assert.equal(row.clientIp, '127.0.0.1');
  // $1 per million input tokens, $2 per million output tokens.
  assert.equal(row.costMicros, 12 + 6);
  assert.deepEqual(settled, [18]);
});

test('a body the codec cannot decode is the client’s 400, written after the take-over, with a token limit decoding it once', async () => {
  const { deps, rows, sent } = pipeline(key({ limits: { tokensPerMinute: 1_000 } }), []);
  const reply = connection();
  await runGeneration(deps, chatRequest({ model: 'smart', messages: 'not a list' }), reply);
  assert.equal(sent.length, 0);
  assert.equal(reply.client.response.status, 400);
  assert.equal(reply.client.response.headers['x-switchyard-error-code'], 'invalid_request');
  assert.equal(JSON.parse(reply.client.response.text).error.code, 'invalid_request');
  assert.equal(rows[0]?.status, 400);
});

test('an upstream failure after the take-over is written in the client’s protocol and recorded with its attempts', async () => {
  const { deps, rows } = pipeline(key(), [() => fakeUpstreamResponse(400, '{"type":"error","error":{"type":"invalid_request_error","message":"too long"}}')]);
  const reply = connection();
  await runGeneration(deps, chatRequest({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] }), reply);
  assert.equal(reply.client.response.status, 400);
  assert.match(JSON.parse(reply.client.response.text).error.message, /too long/);
  assert.equal(rows[0]?.attempts.length, 1);
  assert.equal(rows[0]?.channelName, 'claude');
});
