import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../core/gateway-error.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { openAiChatPassthroughLane as lane } from './openai-chat-passthrough-lane.ts';
import { peekOpenAiChatRequest } from './peek-openai-chat-request.ts';

test('the body goes upstream as the client wrote it when nothing changes', () => {
  const rawBody = '{ "model": "m",  "messages": [], "x_unknown": 1 }';
  assert.equal(lane.upstreamBody({ body: JSON.parse(rawBody), rawBody, upstreamModel: 'm', stream: false }), rawBody);
});

test('a stream gets usage reporting spliced into the client text', () => {
  const rawBody = '{"model":"m","messages":[],"stream":true}\n';
  const body = lane.upstreamBody({ body: JSON.parse(rawBody), rawBody, upstreamModel: 'm', stream: true });
  assert.deepEqual(JSON.parse(body), { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
  // Already asked for: the text is kept.
  const asked = '{"model":"m","stream":true,"stream_options":{"include_usage":true}}';
  assert.equal(lane.upstreamBody({ body: JSON.parse(asked), rawBody: asked, upstreamModel: 'm', stream: true }), asked);
});

test('a mapped model or other stream options fall back to re-serialising', () => {
  const mapped = lane.upstreamBody({ body: { model: 'public', messages: [] }, rawBody: '{"model":"public","messages":[]}', upstreamModel: 'm', stream: false });
  assert.deepEqual(JSON.parse(mapped), { model: 'm', messages: [] });
  const options = lane.upstreamBody({
    body: { model: 'm', stream: true, stream_options: { include_obfuscation: false } },
    rawBody: '{"model":"m","stream":true,"stream_options":{"include_obfuscation":false}}',
    upstreamModel: 'm',
    stream: true,
  });
  assert.deepEqual(JSON.parse(options).stream_options, { include_obfuscation: false, include_usage: true });
});

test('a body nested too deeply to serialise is the client’s 400, not a crash', () => {
  let deep: Record<string, unknown> = {};
  for (let index = 0; index < 20_000; index += 1) deep = { a: deep };
  assert.throws(
    () => lane.upstreamBody({ body: { model: 'public', messages: [deep] }, upstreamModel: 'm', stream: false }),
    (error: unknown) => error instanceof GatewayError && error.code === 'invalid_request',
  );
});

test('peek reads model, stream and include_usage without decoding, tolerating junk', () => {
  assert.deepEqual(peekOpenAiChatRequest({ body: { model: 'gpt', stream: true, stream_options: { include_usage: true }, messages: [] } }), {
    model: 'gpt',
    stream: true,
    includeUsage: true,
    missingField: undefined,
  });
  assert.deepEqual(peekOpenAiChatRequest({ body: { model: 3, stream: 'yes' } }), {
    model: undefined,
    stream: false,
    includeUsage: false,
    missingField: 'messages',
  });
  assert.deepEqual(peekOpenAiChatRequest({ body: null }), { model: undefined, stream: false, includeUsage: false, missingField: 'messages' });
  const tools = [
    { type: 'custom', custom: { name: 'apply_patch' } },
    { type: 'function', function: { name: 'shell' } },
    { type: 'custom', custom: 'junk' },
  ];
  assert.deepEqual(peekOpenAiChatRequest({ body: { model: 'gpt', messages: [], tools } }).customTools, ['apply_patch'], 'custom tools are named');
});

const usageChunk = { data: '{"id":"c","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}' };
const textChunk = { data: '{"id":"c","choices":[{"index":0,"delta":{"content":"Hel\\"lo"}}]}' };

test('the stream meters usage, counts delta text and knows [DONE] and an error chunk', () => {
  const stream = lane.openStream(createFixedRuntime(), { includeUsage: true });
  assert.equal(stream.observe(textChunk), undefined);
  assert.equal(stream.observe({ data: '{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"{\\"a\\":1}"}}]}}]}' }), undefined);
  assert.equal(stream.observe(usageChunk), undefined);
  assert.equal(stream.deliveredChars, 7 + 9);
  assert.deepEqual(stream.usage(), { inputTokens: 3, outputTokens: 2 });
  assert.equal(stream.observe({ data: '[DONE]' }), 'end');
  assert.equal(stream.observe({ data: '{"error":{"message":"boom"}}' }), 'error');
  assert.equal(stream.observe({ data: '{"choices":[{"delta":' }), 'malformed');
  assert.equal(stream.forwardsAsIs(usageChunk), true);
});

test('the usage chunk the gateway asked for is hidden from a client that did not', () => {
  const stream = lane.openStream(createFixedRuntime(), {});
  stream.observe(usageChunk);
  assert.deepEqual(stream.usage(), { inputTokens: 3, outputTokens: 2 });
  assert.equal(stream.forwardsAsIs(usageChunk), false);
  assert.equal(stream.frame(usageChunk), '');
  assert.equal(stream.forwardsAsIs(textChunk), true);
  assert.equal(stream.frame(textChunk), `data: ${textChunk.data}\n\n`);
});

test('an in-stream error is OpenAI’s error chunk, and comment lines keep the client alive', () => {
  const stream = lane.openStream(createFixedRuntime(), {});
  const framed = stream.error(new GatewayError('upstream_invalid_response', 'cut short'));
  assert.match(framed, /^data: \{"error":\{"message":"cut short/);
  assert.equal(stream.end(), '');
  assert.equal(lane.keepAliveFrame, ': keep-alive\n\n');
});
