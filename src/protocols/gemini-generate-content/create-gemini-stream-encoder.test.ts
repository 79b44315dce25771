import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { createGeminiStreamDecoder } from './create-gemini-stream-decoder.ts';
import { createGeminiStreamEncoder } from './create-gemini-stream-encoder.ts';

const events: StreamEvent[] = [
  { type: 'response-start', id: 'resp_1', model: 'gemini-x', createdAt: 0 },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'hmm' },
  { type: 'reasoning-end', id: 'r', signature: 'anthropic-sig' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hi' },
  { type: 'text-delta', id: 't', delta: '' },
  { type: 'text-end', id: 't' },
  { type: 'tool-call-start', id: 'c', callId: 'call_9', name: 'get' },
  { type: 'tool-call-delta', id: 'c', argumentsDelta: '{"id"' },
  { type: 'tool-call-delta', id: 'c', argumentsDelta: ':1}' },
  { type: 'tool-call-end', id: 'c', providerMetadata: { gemini: { thoughtSignature: 'FS' } } },
  { type: 'usage', usage: { inputTokens: 10, outputTokens: 8, reasoningTokens: 3, cacheReadTokens: 4 } },
  { type: 'response-end', finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
];

const chunks = [
  '{"candidates":[{"content":{"role":"model","parts":[{"text":"hmm","thought":true}]},"index":0}],"modelVersion":"gemini-x","responseId":"resp_1"}',
  '{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"index":0}],"modelVersion":"gemini-x","responseId":"resp_1"}',
  '{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"call_9","name":"get","args":{"id":1}},"thoughtSignature":"FS"}]},"index":0}],"modelVersion":"gemini-x","responseId":"resp_1"}',
  '{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":18,"thoughtsTokenCount":3,"cachedContentTokenCount":4},"modelVersion":"gemini-x","responseId":"resp_1"}',
];

function encodeAll(format: 'sse' | 'json-array', input: StreamEvent[]): string {
  const encoder = createGeminiStreamEncoder(createFixedRuntime(), { format });
  return input.map((event) => encoder.push(event)).join('') + encoder.end();
}

describe('createGeminiStreamEncoder', () => {
  test('sse: one data line per chunk, whole function call, finish reason and usage on the last chunk', () => {
    assert.equal(encodeAll('sse', events), chunks.map((chunk) => `data: ${chunk}\n\n`).join(''));
  });

  test('json-array: a streamed array, and [] when nothing was written', () => {
    assert.equal(encodeAll('json-array', events), `[${chunks.join(',\r\n')}]`);
    assert.equal(encodeAll('json-array', []), '[]');
  });

  test('defaults to sse', () => {
    const encoder = createGeminiStreamEncoder(createFixedRuntime());
    assert.match(encoder.push({ type: 'text-delta', id: 't', delta: 'x' }), /^data: \{/);
    assert.equal(encoder.end(), '');
  });

  test('Gemini signatures on text and thoughts are replayed as empty signed parts', () => {
    const out = encodeAll('sse', [
      { type: 'response-start', id: 'r', model: 'm', createdAt: 0 },
      { type: 'reasoning-end', id: 'a', providerMetadata: { gemini: { thoughtSignature: 'S1' } } },
      { type: 'text-end', id: 'b', providerMetadata: { gemini: { thoughtSignature: 'S2' } } },
    ]);
    assert.equal(
      out,
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"","thought":true,"thoughtSignature":"S1"}]},"index":0}],"modelVersion":"m","responseId":"r"}\n\n' +
        'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"","thoughtSignature":"S2"}]},"index":0}],"modelVersion":"m","responseId":"r"}\n\n',
    );
  });

  test('an error event becomes an in-stream Gemini error', () => {
    const error = new GatewayError('upstream_timeout', 'The upstream did not answer in time.');
    assert.equal(
      encodeAll('sse', [{ type: 'error', error }]),
      'data: {"error":{"code":504,"message":"The upstream did not answer in time.","status":"DEADLINE_EXCEEDED"}}\n\n',
    );
    assert.equal(
      encodeAll('json-array', [{ type: 'error', error }]),
      '[{"error":{"code":504,"message":"The upstream did not answer in time.","status":"DEADLINE_EXCEEDED"}}]',
    );
  });

  test('encoder output decodes back to the same content, finish and usage', () => {
    const decoder = createGeminiStreamDecoder(createFixedRuntime());
    const decoded: StreamEvent[] = [];
    for (const frame of encodeAll('sse', events).split('\n\n').filter(Boolean)) {
      decoded.push(...decoder.push({ data: frame.slice('data: '.length) }));
    }
    decoded.push(...decoder.end());
    assert.deepEqual(
      decoded.filter((event) => event.type.endsWith('delta')),
      [
        { type: 'reasoning-delta', id: '0', delta: 'hmm' },
        { type: 'text-delta', id: '1', delta: 'Hi' },
        { type: 'tool-call-delta', id: '2', argumentsDelta: '{"id":1}' },
      ],
    );
    assert.deepEqual(decoded.at(-1), {
      type: 'response-end',
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 10, outputTokens: 8, reasoningTokens: 3, cacheReadTokens: 4 },
    });
  });
});
