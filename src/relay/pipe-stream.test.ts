import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../core/gateway-error.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { ProtocolId, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import { createFixedRuntime } from '../../test/helpers/fixed-runtime.ts';
import { chunksOf, fakeClient } from '../../test/helpers/relay-fakes.ts';
import { pipeStream } from './pipe-stream.ts';

interface Run {
  chunks: string[];
  client: ProtocolId;
  upstream: ProtocolId;
  encoderOptions?: StreamEncoderOptions;
  pauseMs?: number;
  keepAliveMs?: number;
}

async function run({ chunks, client, upstream, encoderOptions = {}, pauseMs = 0, keepAliveMs = 60_000 }: Run) {
  const { response, writer } = fakeClient();
  let aborted = 0;
  const [first, ...rest] = chunks;
  const outcome = await pipeStream({
    firstChunk: Buffer.from(first as string),
    rest: chunksOf(rest, pauseMs),
    passthrough: client === upstream,
    clientCodec: getCodec(client),
    upstreamCodec: getCodec(upstream),
    encoderOptions,
    runtime: createFixedRuntime(),
    writer,
    keepAliveMs,
    abortUpstream: () => {
      aborted += 1;
    },
  });
  return { outcome, text: response.text, pieces: response.pieces, ended: response.writableEnded, aborted };
}

const chat = (content: string) => `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;
const chatUsage = 'data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}\n\n';
const done = 'data: [DONE]\n\n';

test('passthrough forwards the upstream bytes whole events at a time, even when chunks cut events in half', async () => {
  const whole = chat('Hel') + chat('lo') + chatUsage + done;
  const cuts = [whole.slice(0, 10), whole.slice(10, 95), whole.slice(95, 200), whole.slice(200)];
  const { outcome, text, pieces, ended } = await run({ chunks: cuts, client: 'openai-chat', upstream: 'openai-chat', encoderOptions: { includeUsage: true } });
  assert.equal(text, whole);
  // No piece ends mid-event.
  for (const piece of pieces) assert.ok(piece.endsWith('\n\n'), JSON.stringify(piece));
  assert.ok(ended);
  assert.equal(outcome.error, undefined);
  assert.deepEqual(outcome.usage, { inputTokens: 5, outputTokens: 2 });
  assert.equal(outcome.deliveredChars, 5);
});

test('passthrough hides the usage chunk the gateway asked for when the client did not', async () => {
  const { outcome, text } = await run({ chunks: [chat('Hi') + chatUsage, done], client: 'openai-chat', upstream: 'openai-chat' });
  assert.equal(text, chat('Hi') + done);
  assert.deepEqual(outcome.usage, { inputTokens: 5, outputTokens: 2 });
});

test('passthrough: a stream that ends without its end event ends with the protocol’s error', async () => {
  const { outcome, text } = await run({ chunks: [chat('Hi')], client: 'openai-chat', upstream: 'openai-chat' });
  assert.ok(text.startsWith(chat('Hi')));
  assert.match(text.slice(chat('Hi').length), /^data: \{"error":\{"message":"The upstream stream ended before its last event/);
  assert.equal(outcome.error?.code, 'upstream_invalid_response');
  assert.equal(outcome.deliveredChars, 2);
});

test('passthrough: a malformed event stops the upstream and ends the client stream with an error', async () => {
  const { outcome, text, aborted } = await run({
    chunks: [chat('Hi'), 'data: {"choices":[{"delta":\n\n', chat('never')],
    client: 'openai-chat',
    upstream: 'openai-chat',
  });
  assert.equal(aborted, 1);
  assert.equal(outcome.error?.code, 'upstream_invalid_response');
  assert.ok(!text.includes('never'));
  assert.match(text, /malformed event/);
});

test('passthrough: an upstream error event is forwarded and reported', async () => {
  const error = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"busy"}}\n\n';
  const { outcome, text } = await run({
    chunks: ['event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":1}}}\n\n', error],
    client: 'anthropic-messages',
    upstream: 'anthropic-messages',
  });
  assert.ok(text.endsWith(error));
  assert.equal(outcome.error?.code, 'upstream_error');
});

test('passthrough: a Gemini client without alt=sse gets a JSON array of the upstream events', async () => {
  const a = '{"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"index":0}]}';
  const b =
    '{"candidates":[{"content":{"parts":[{"text":"!"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"totalTokenCount":6}}';
  const { outcome, text } = await run({
    chunks: [`data: ${a}\r\n\r\n`, `data: ${b}\r\n\r\n`],
    client: 'gemini-generate-content',
    upstream: 'gemini-generate-content',
    encoderOptions: { format: 'json-array' },
  });
  assert.deepEqual(JSON.parse(text), [JSON.parse(a), JSON.parse(b)]);
  assert.deepEqual(outcome.usage, { inputTokens: 4, outputTokens: 2 });
});

test('the translated lane decodes the upstream stream and re-encodes it for the client', async () => {
  const events = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"claude-x","usage":{"input_tokens":9,"output_tokens":1}}}\n\n',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n',
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  ];
  const { outcome, text } = await run({ chunks: events, client: 'openai-chat', upstream: 'anthropic-messages', encoderOptions: { includeUsage: true } });
  assert.match(text, /"content":"Hello"/);
  assert.ok(text.endsWith('data: [DONE]\n\n'));
  assert.equal(outcome.error, undefined);
  assert.equal(outcome.usage?.inputTokens, 9);
  assert.equal(outcome.usage?.outputTokens, 4);
  assert.equal(outcome.deliveredChars, 5);
});

test('after upstream silence the client gets its protocol’s keep-alive frame (and Gemini none)', async () => {
  const events = [
    'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":1}}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  ];
  const anthropic = await run({ chunks: events, client: 'anthropic-messages', upstream: 'anthropic-messages', pauseMs: 80, keepAliveMs: 20 });
  assert.ok(anthropic.pieces.includes('event: ping\ndata: {"type": "ping"}\n\n'));
  assert.equal(anthropic.outcome.error, undefined);
  const gemini = await run({
    chunks: ['data: {"candidates":[{"content":{"parts":[{"text":"a"}]},"index":0}]}\n\n', 'data: {"candidates":[{"finishReason":"STOP","index":0}]}\n\n'],
    client: 'gemini-generate-content',
    upstream: 'gemini-generate-content',
    pauseMs: 80,
    keepAliveMs: 20,
  });
  assert.equal(gemini.pieces.length, 2);
});

test('a failure while reading the upstream ends the client stream with the protocol’s error', async () => {
  const { writer, response } = fakeClient();
  const outcome = await pipeStream({
    firstChunk: Buffer.from(chat('Hi')),
    rest: (async function* () {
      yield* [];
      throw new GatewayError('upstream_timeout', 'stalled');
    })(),
    passthrough: true,
    clientCodec: getCodec('openai-chat'),
    upstreamCodec: getCodec('openai-chat'),
    encoderOptions: {},
    runtime: createFixedRuntime(),
    writer,
    keepAliveMs: 60_000,
    abortUpstream: () => undefined,
  });
  assert.equal(outcome.error?.code, 'upstream_timeout');
  assert.match(response.text, /stalled/);
  assert.ok(response.writableEnded);
});
