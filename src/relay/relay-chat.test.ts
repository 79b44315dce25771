import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { GatewayError } from '../core/gateway-error.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';
import { ChannelHealth } from './routing/channel-health.ts';
import type { Channel } from '../domain/channel.ts';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from './channels/upstream-client.ts';
import { createFixedRuntime } from '../../test/helpers/fixed-runtime.ts';
import { fakeClient, fakeUpstreamResponse } from '../../test/helpers/relay-fakes.ts';
import { relayChat, type RelayDeps, type RelayInput } from './relay-chat.ts';

function channel(name: string, provider: Channel['provider'], overrides: Partial<Channel> = {}): Channel {
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
    ...overrides,
  };
}

/** The relay's dependencies around a scripted upstream: each host answers from its own queue. */
function relayDeps(script: Record<string, Array<() => UpstreamResponse>>) {
  const runtime = createFixedRuntime();
  const sent: UpstreamRequest[] = [];
  const upstream = {
    async send(request: UpstreamRequest): Promise<UpstreamResponse> {
      sent.push(request);
      const host = new URL(request.url).hostname;
      const next = script[host]?.shift();
      if (!next) throw new Error(`unexpected upstream call to ${request.url}`);
      return next();
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
  };
  return { deps, sent };
}

function relayInput(clientProtocol: ProtocolId, body: Record<string, unknown>, channels: Channel[], decodes = { count: 0 }) {
  const client = fakeClient();
  const input: RelayInput = {
    requestId: 'req_1',
    clientProtocol,
    body,
    rawBody: JSON.stringify(body),
    decodeClientRequest: () => {
      decodes.count += 1;
      const decoded = getCodec(clientProtocol).decodeRequest({ body, pathStream: body.stream === true }, createFixedRuntime());
      return { request: decoded.value, warnings: decoded.warnings };
    },
    stream: body.stream === true,
    encoderOptions: {},
    publicModel: 'public-model',
    channels,
    forwardedHeaders: {},
    replyHeaders: { 'x-request-id': 'req_1' },
    writer: client.writer,
    controller: new AbortController(),
  };
  return { input, response: client.response, decodes };
}

const chatBody = { model: 'public-model', messages: [{ role: 'user', content: 'hi' }] };
const chatReply = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-x',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});

test('a retryable upstream failure moves on to the next channel; the reply passes through untouched', async () => {
  const { deps, sent } = relayDeps({
    'first.test': [() => fakeUpstreamResponse(503, '{"error":{"message":"overloaded"}}')],
    'second.test': [() => fakeUpstreamResponse(200, chatReply)],
  });
  const { input, response, decodes } = relayInput('openai-chat', chatBody, [channel('first', 'openai'), channel('second', 'openai')]);
  const result = await relayChat(deps, input);
  assert.equal(result.status, 200);
  assert.equal(result.error, undefined);
  assert.equal(result.channel?.name, 'second');
  assert.equal(result.upstreamProtocol, 'openai-chat');
  assert.deepEqual(result.usage, { inputTokens: 3, outputTokens: 1 });
  assert.deepEqual(
    result.attempts.map((attempt) => [attempt.channelName, attempt.status, attempt.errorCode]),
    [
      ['first', 503, 'upstream_error'],
      ['second', 200, null],
    ],
  );
  assert.equal(response.text, chatReply);
  assert.equal(response.headers['x-request-id'], 'req_1');
  // Passthrough: the client's own text went upstream, never decoded.
  assert.equal(sent[1]?.body, JSON.stringify(chatBody));
  assert.equal(decodes.count, 0);
});

test('a client error from the upstream is not retried elsewhere and nothing is written', async () => {
  const { deps, sent } = relayDeps({
    'first.test': [() => fakeUpstreamResponse(400, '{"error":{"message":"bad tool schema"}}')],
    'second.test': [],
  });
  const { input, response } = relayInput('openai-chat', chatBody, [channel('first', 'openai'), channel('second', 'openai')]);
  const result = await relayChat(deps, input);
  assert.equal(result.status, 400);
  assert.match(result.error?.message ?? '', /bad tool schema/);
  assert.equal(sent.length, 1);
  assert.equal(response.headersSent, false);
});

test('a channel whose circuit is open is skipped without an upstream call', async () => {
  const { deps, sent } = relayDeps({ 'second.test': [() => fakeUpstreamResponse(200, chatReply)] });
  const broken = channel('first', 'openai');
  deps.health.recordBroken(broken, { keyIndex: 0, apiKey: 'sk-first' }, { at: deps.runtime.now(), status: 401, code: 'upstream_error', message: 'bad key' });
  const { input } = relayInput('openai-chat', chatBody, [broken, channel('second', 'openai')]);
  const result = await relayChat(deps, input);
  assert.equal(result.status, 200);
  assert.deepEqual(result.attempts[0], { channelId: 'ch_first', channelName: 'first', status: null, errorCode: 'circuit_open', latencyMs: 0 });
  assert.equal(sent.length, 1);
});

test('translated attempts share one decode of the client request', async () => {
  const anthropicReply = JSON.stringify({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: [{ type: 'text', text: 'Hello' }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 3, output_tokens: 1 },
  });
  const { deps, sent } = relayDeps({
    'first.test': [() => fakeUpstreamResponse(529, '{"type":"error","error":{"type":"overloaded_error","message":"busy"}}')],
    'second.test': [() => fakeUpstreamResponse(200, anthropicReply)],
  });
  const shared = { count: 0 };
  let decoded: ReturnType<RelayInput['decodeClientRequest']> | undefined;
  const { input, response } = relayInput('openai-chat', chatBody, [channel('first', 'anthropic'), channel('second', 'anthropic')], shared);
  const decodeOnce = input.decodeClientRequest;
  input.decodeClientRequest = () => (decoded ??= decodeOnce());
  const result = await relayChat(deps, input);
  assert.equal(result.status, 200);
  assert.equal(shared.count, 1);
  assert.equal(sent.length, 2);
  assert.equal(JSON.parse(sent[1]?.body ?? '{}').model, 'public-model');
  const reply = JSON.parse(response.text);
  assert.equal(reply.object, 'chat.completion');
  assert.equal(reply.choices[0].message.content, 'Hello');
});

test('a client request that cannot be translated fails without reaching any upstream', async () => {
  const { deps, sent } = relayDeps({});
  const { input } = relayInput('openai-chat', { model: 'public-model', messages: 'not a list' }, [channel('first', 'anthropic')]);
  const result = await relayChat(deps, input);
  assert.equal(result.status, 400);
  assert.ok(result.error instanceof GatewayError);
  assert.equal(result.error.code, 'invalid_request');
  assert.equal(sent.length, 0);
});

test('a stream is piped from the channel that answered, with usage asked for on the client’s behalf', async () => {
  const chunk = (content: string) => `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;
  const usage = 'data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n';
  const { deps, sent } = relayDeps({
    'first.test': [() => fakeUpstreamResponse(502, 'bad gateway')],
    'second.test': [() => fakeUpstreamResponse(200, { chunks: [chunk('He'), chunk('y') + usage, 'data: [DONE]\n\n'] })],
  });
  const { input, response } = relayInput('openai-chat', { ...chatBody, stream: true }, [channel('first', 'openai'), channel('second', 'openai')]);
  const result = await relayChat(deps, input);
  assert.equal(result.status, 200);
  assert.equal(result.channel?.name, 'second');
  assert.equal(result.attempts[0]?.status, 502);
  // The gateway asked for usage on the client's behalf, and hid the usage chunk it did not ask for.
  assert.deepEqual(JSON.parse(sent[1]?.body ?? '{}').stream_options, { include_usage: true });
  assert.equal(response.text, chunk('He') + chunk('y') + 'data: [DONE]\n\n');
  assert.equal(response.headers['content-type'], 'text/event-stream; charset=utf-8');
  assert.deepEqual(result.usage, { inputTokens: 3, outputTokens: 2 });
  assert.equal(deps.streams.open, 0);
});
