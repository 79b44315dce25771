import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { getCodec } from '../../protocols/codec-registry.ts';
import type { ProtocolId } from '../../protocols/protocol-codec.ts';
import { ChannelHealth } from '../routing/channel-health.ts';
import type { Channel } from '../../domain/channel.ts';
import { createMemoryKv } from '../../kv/create-memory-kv.ts';
import type { Kv } from '../../kv/kv.ts';
import { createReasoningCache } from './reasoning-cache.ts';
import { createEnvelopeSealer } from './reasoning-envelope.ts';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../channels/upstream-client.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { fakeClient, fakeUpstreamResponse } from '../../../test/helpers/relay-fakes.ts';
import { relayChat, type RelayDeps, type RelayInput } from '../relay-chat.ts';

function channel(name: string, provider: Channel['provider']): Channel {
  return {
    id: `ch_${name}`,
    name,
    provider,
    baseUrl: `http://${name}.test${provider === 'openai' ? '/v1' : ''}`,
    apiKeys: [`sk-${name}`],
    models: ['public-model'],
    groups: ['default'],
    modelMap: {},
    priority: 0,
    weight: 1,
    enabled: true,
    supportsResponses: false,
    allowedPrefixes: [],
    createdAt: 0,
    updatedAt: 0,
  };
}

const claude = channel('claude', 'anthropic');
const busy = channel('busy', 'anthropic');
const gpt = channel('gpt', 'openai');

/** Claude thinks (signed) and calls a tool; the second reply is the final answer. */
const toolReply = JSON.stringify({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  stop_reason: 'tool_use',
  usage: { input_tokens: 3, output_tokens: 1 },
  content: [
    { type: 'thinking', thinking: 'Read the file first.', signature: 'SIG-FROM-ANTHROPIC' },
    { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } },
  ],
});
const finalReply = JSON.stringify({
  id: 'msg_2',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  stop_reason: 'end_turn',
  usage: { input_tokens: 3, output_tokens: 1 },
  content: [{ type: 'text', text: 'It says hello.' }],
});
const chatReply = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-x',
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
  choices: [{ index: 0, message: { role: 'assistant', content: 'It says hello.' }, finish_reason: 'stop' }],
});

const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const firstBody = { model: 'public-model', reasoning_effort: 'high', tools, messages: [{ role: 'user', content: 'What does notes.txt say?' }] };
/** The second turn as the AI SDK's Chat provider sends it: the tool call, but no reasoning_details. */
const secondBody = {
  ...firstBody,
  messages: [
    ...firstBody.messages,
    { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] },
    { role: 'tool', tool_call_id: 'toolu_1', content: 'hello' },
  ],
};

/** A memory kv whose text reads are counted (and can be made to fail). */
function countingKv() {
  const kv = createMemoryKv();
  const reads: string[][] = [];
  const state = { failReads: false };
  const counting: Kv = {
    ...kv,
    getTexts: async (keys) => {
      reads.push([...keys]);
      if (state.failReads) throw new Error('connection to Redis closed');
      return kv.getTexts(keys);
    },
  };
  return { kv: counting, reads, state };
}

function setUp(kv: Kv, script: Array<[string, () => UpstreamResponse]>) {
  const runtime = createFixedRuntime();
  const sent: UpstreamRequest[] = [];
  const queue = [...script];
  const upstream = {
    async send(request: UpstreamRequest): Promise<UpstreamResponse> {
      sent.push(request);
      const next = queue.shift();
      assert.ok(next, `unexpected upstream call to ${request.url}`);
      assert.equal(new URL(request.url).hostname, next[0]);
      return next[1]();
    },
  } as unknown as UpstreamClient;
  const deps: RelayDeps = {
    upstream,
    runtime,
    logger: pino({ level: 'silent' }),
    health: new ChannelHealth(runtime.now),
    streams: { open: 0 },
    retryStatuses: new Set([429, 500, 502, 503, 504, 529]),
    maxAttempts: 3,
    totalTimeoutMs: 5_000,
    maxRetryWaitMs: 0,
    keepAliveMs: 60_000,
    reasoning: { sealer: createEnvelopeSealer('test-secret'), cache: createReasoningCache({ kv, logger: pino({ level: 'silent' }) }) },
  };
  const relay = async (body: Record<string, unknown>, channels: Channel[], scope = 'key-1', clientProtocol: ProtocolId = 'openai-chat') => {
    const client = fakeClient();
    const input: RelayInput = {
      requestId: 'req_1',
      clientProtocol,
      body,
      rawBody: JSON.stringify(body),
      decodeClientRequest: () => {
        const decoded = getCodec(clientProtocol).decodeRequest({ body }, createFixedRuntime());
        return { request: decoded.value, warnings: decoded.warnings };
      },
      stream: false,
      encoderOptions: {},
      publicModel: 'public-model',
      channels,
      forwardedHeaders: {},
      replyHeaders: {},
      writer: client.writer,
      controller: new AbortController(),
      reasoningScope: scope,
    };
    const result = await relayChat(deps, input);
    return { result, reply: client.response.text };
  };
  return { relay, sent };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const sentBody = (request: UpstreamRequest | undefined) => JSON.parse(request?.body ?? '{}');

test('a Chat client that dropped the reasoning gets it back from the kv: one read shared by every attempt', async () => {
  const { kv, reads } = countingKv();
  const { relay, sent } = setUp(kv, [
    ['claude.test', () => fakeUpstreamResponse(200, toolReply)],
    ['busy.test', () => fakeUpstreamResponse(529, '{"type":"error","error":{"type":"overloaded_error","message":"busy"}}')],
    ['claude.test', () => fakeUpstreamResponse(200, finalReply)],
  ]);
  const first = await relay(firstBody, [claude]);
  assert.equal(first.result.status, 200);
  assert.doesNotMatch(first.reply, /SIG-FROM-ANTHROPIC/, 'the raw signature never reaches the client');
  assert.deepEqual(reads, [], 'a first turn has no call to look up');
  await settle();

  const second = await relay(secondBody, [busy, claude]);
  assert.equal(second.result.status, 200);
  assert.equal(reads.length, 1, 'one kv round trip for the request, however many attempts');
  assert.ok(second.result.warnings.includes('compatibility:reasoning_state_recalled'));
  const upstream = sentBody(sent[2]);
  assert.equal(upstream.thinking?.type, 'enabled');
  assert.deepEqual(upstream.messages[1].content[0], { type: 'thinking', thinking: 'Read the file first.', signature: 'SIG-FROM-ANTHROPIC' });
});

test('another API key recalls nothing; a kv that fails recalls nothing; both degrade with the usual warning', async () => {
  const { kv, reads, state } = countingKv();
  const { relay, sent } = setUp(kv, [
    ['claude.test', () => fakeUpstreamResponse(200, toolReply)],
    ['claude.test', () => fakeUpstreamResponse(200, finalReply)],
    ['claude.test', () => fakeUpstreamResponse(200, finalReply)],
  ]);
  await relay(firstBody, [claude]);
  await settle();

  const stranger = await relay(secondBody, [claude], 'key-2');
  assert.equal(stranger.result.status, 200);
  assert.ok(!stranger.result.warnings.includes('compatibility:reasoning_state_recalled'));
  assert.ok(stranger.result.warnings.includes('compatibility:thinking_disabled'));
  assert.equal(sentBody(sent[1]).thinking, undefined);

  state.failReads = true;
  const outage = await relay(secondBody, [claude]);
  assert.equal(outage.result.status, 200, 'a kv failure is never a failed request');
  assert.ok(outage.result.warnings.includes('compatibility:thinking_disabled'));
  assert.ok(!outage.result.warnings.includes('compatibility:reasoning_state_recalled'));
  assert.equal(reads.length, 2);
});

test('the passthrough lane, and a Chat upstream (which takes no reasoning back), never look anything up', async () => {
  const { kv, reads } = countingKv();
  const { relay } = setUp(kv, [
    ['gpt.test', () => fakeUpstreamResponse(200, chatReply)],
    ['gpt.test', () => fakeUpstreamResponse(200, chatReply)],
  ]);
  assert.equal((await relay(secondBody, [gpt])).result.status, 200);
  // A Responses client on a Chat channel is translated, and still has nothing to recall there.
  const responsesBody = {
    model: 'public-model',
    input: [
      { role: 'user', content: 'What does notes.txt say?' },
      { type: 'function_call', call_id: 'toolu_1', name: 'read_file', arguments: '{"path":"notes.txt"}' },
      { type: 'function_call_output', call_id: 'toolu_1', output: 'hello' },
    ],
  };
  assert.equal((await relay(responsesBody, [gpt], 'key-1', 'openai-responses')).result.status, 200);
  assert.deepEqual(reads, []);
});
