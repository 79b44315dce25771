import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../core/gateway-error.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { geminiPassthroughLane as lane, peekGeminiRequest } from './gemini-passthrough-lane.ts';

const text = (value: string) => ({ data: `{"candidates":[{"content":{"parts":[{"text":"${value}"}],"role":"model"},"index":0}]}` });
const last = {
  data: '{"candidates":[{"content":{"parts":[{"text":"!"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"totalTokenCount":6}}',
};

test('the model lives in the path: the body goes as it came, and peek reads the path', () => {
  const rawBody = '{"contents":[]}';
  assert.equal(lane.upstreamBody({ body: { contents: [] }, rawBody, upstreamModel: 'gemini-x', stream: true }), rawBody);
  assert.equal(lane.upstreamBody({ body: { contents: [] }, upstreamModel: 'gemini-x', stream: true }), '{"contents":[]}');
  assert.deepEqual(peekGeminiRequest({ body: { model: 'ignored', contents: [] }, pathModel: 'gemini-x', pathStream: true }), {
    model: 'gemini-x',
    stream: true,
    includeUsage: true,
    missingField: undefined,
  });
});

test('an SSE client gets the upstream events as they are; the finish reason ends the stream', () => {
  const stream = lane.openStream(createFixedRuntime(), { format: 'sse' });
  assert.equal(stream.observe(text('ab')), undefined);
  assert.equal(stream.forwardsAsIs(text('ab')), true);
  assert.equal(stream.observe(last), 'end');
  assert.equal(stream.deliveredChars, 3);
  assert.deepEqual(stream.usage(), { inputTokens: 4, outputTokens: 2 });
  assert.equal(stream.observe({ data: '{"error":{"code":500}}' }), 'error');
  assert.equal(stream.end(), '');
  assert.equal(lane.keepAliveFrame, undefined);
});

test('a JSON-array client gets each event as one array element, errors included', () => {
  const stream = lane.openStream(createFixedRuntime(), { format: 'json-array' });
  stream.observe(text('ab'));
  assert.equal(stream.forwardsAsIs(text('ab')), false);
  assert.equal(stream.frame(text('ab')), `[${text('ab').data}`);
  assert.equal(stream.frame(last), `,\r\n${last.data}`);
  assert.equal(stream.end(), ']');
  const error = stream.error(new GatewayError('upstream_invalid_response', 'cut short'));
  assert.equal(error, ',\r\n{"error":{"code":502,"message":"cut short","status":"UNAVAILABLE"}}]');
  const empty = lane.openStream(createFixedRuntime(), { format: 'json-array' });
  assert.equal(empty.end(), '[]');
  assert.deepEqual(JSON.parse(empty.error(new GatewayError('upstream_invalid_response', 'x'))), [
    { error: { code: 502, message: 'x', status: 'UNAVAILABLE' } },
  ]);
});
