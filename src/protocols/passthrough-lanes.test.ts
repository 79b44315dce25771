import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../core/gateway-error.ts';
import { createFixedRuntime } from '../../test/helpers/fixed-runtime.ts';
import { getCodec } from './codec-registry.ts';

const runtime = createFixedRuntime();
const open = (protocol: Parameters<typeof getCodec>[0]) => getCodec(protocol).passthrough.openStream(runtime, {});

test('each protocol counts only the generated text of an event, escapes included, not the JSON around it', () => {
  const count = (protocol: Parameters<typeof getCodec>[0], data: string) => {
    const stream = open(protocol);
    stream.observe({ data });
    return stream.deliveredChars;
  };
  assert.equal(count('openai-chat', '{"id":"x","choices":[{"delta":{"content":"Hel\\"lo"}}]}'), 7);
  assert.equal(count('anthropic-messages', '{"type":"content_block_delta","delta":{"type":"text_delta","text":"Hi"}}'), 2);
  assert.equal(count('anthropic-messages', '{"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"{\\"a"}}'), 4);
  assert.equal(count('gemini-generate-content', '{"candidates":[{"content":{"parts":[{"text":"ab"},{"text":"cd"}]}}]}'), 4);
  assert.equal(count('openai-responses', '{"type":"response.output_text.delta","delta":"xyz"}'), 3);
  assert.equal(count('openai-chat', '{"choices":[],"usage":{"prompt_tokens":3}}'), 0);
});

test('each protocol knows its own end and error events', () => {
  const anthropic = open('anthropic-messages');
  assert.equal(anthropic.observe({ event: 'content_block_stop', data: '{"type":"content_block_stop","index":0}' }), undefined);
  assert.equal(anthropic.observe({ event: 'message_stop', data: '{"type":"message_stop"}' }), 'end');
  assert.equal(anthropic.observe({ event: 'error', data: '{"type":"error","error":{"type":"overloaded_error"}}' }), 'error');
  const responses = open('openai-responses');
  assert.equal(responses.observe({ event: 'response.output_text.delta', data: '{"delta":"x"}' }), undefined);
  assert.equal(responses.observe({ event: 'response.completed', data: '{"type":"response.completed"}' }), 'end');
  assert.equal(responses.observe({ event: 'response.incomplete', data: '{"type":"response.incomplete"}' }), 'end');
  assert.equal(responses.observe({ event: 'response.failed', data: '{"type":"response.failed"}' }), 'error');
  // A malformed event is not metered.
  assert.equal(responses.observe({ event: 'response.output_text.delta', data: '{"delta":"abc"' }), 'malformed');
  assert.equal(responses.deliveredChars, 1);
});

test('each protocol frames its own in-stream error and keep-alive', () => {
  const error = new GatewayError('upstream_invalid_response', 'cut short');
  assert.match(open('anthropic-messages').error(error), /^event: error\ndata: \{"type":"error"/);
  assert.match(open('openai-responses').error(error), /event: response.failed\n/);
  assert.equal(getCodec('anthropic-messages').passthrough.keepAliveFrame, 'event: ping\ndata: {"type": "ping"}\n\n');
  assert.equal(getCodec('openai-responses').passthrough.keepAliveFrame, ': keep-alive\n\n');
});

test('peek: the body protocols read model and stream from the body; only chat may leave usage out', () => {
  for (const [protocol, field] of [
    ['openai-responses', 'input'],
    ['anthropic-messages', 'messages'],
  ] as const) {
    assert.deepEqual(getCodec(protocol).peek({ body: { model: 'm', stream: true, [field]: [] } }), {
      model: 'm',
      stream: true,
      includeUsage: true,
      missingField: undefined,
    });
  }
  assert.deepEqual(getCodec('openai-chat').peek({ body: { model: 'm', stream: true, messages: [] } }), {
    model: 'm',
    stream: true,
    includeUsage: false,
    missingField: undefined,
  });
});

test('peek names the conversation field a body lacks (absent or null), per protocol', () => {
  assert.equal(getCodec('openai-chat').peek({ body: { model: 'm' } }).missingField, 'messages');
  assert.equal(getCodec('openai-chat').peek({ body: { model: 'm', messages: null } }).missingField, 'messages');
  assert.equal(getCodec('openai-responses').peek({ body: { model: 'm', messages: [] } }).missingField, 'input');
  assert.equal(getCodec('openai-responses').peek({ body: { model: 'm', input: 'hi' } }).missingField, undefined);
  assert.equal(getCodec('anthropic-messages').peek({ body: { model: 'm', contents: [] } }).missingField, 'messages');
  assert.equal(getCodec('gemini-generate-content').peek({ body: { messages: [] }, pathModel: 'g' }).missingField, 'contents');
  assert.equal(getCodec('gemini-generate-content').peek({ body: { contents: [] }, pathModel: 'g' }).missingField, undefined);
});

test('a same-protocol body keeps the client text unless the model is mapped', () => {
  for (const protocol of ['openai-responses', 'anthropic-messages'] as const) {
    const lane = getCodec(protocol).passthrough;
    const rawBody = '{"model":"m", "input":"hi"}';
    assert.equal(lane.upstreamBody({ body: JSON.parse(rawBody), rawBody, upstreamModel: 'm', stream: true }), rawBody);
    assert.deepEqual(JSON.parse(lane.upstreamBody({ body: JSON.parse(rawBody), rawBody, upstreamModel: 'up', stream: true })), { model: 'up', input: 'hi' });
  }
});
