import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { StreamEvent } from '../../core/stream-event.ts';
import { createResponseAssembler } from '../shared/assemble-response.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { createGeminiStreamDecoder } from './create-gemini-stream-decoder.ts';

function run(chunks: Array<unknown>): StreamEvent[] {
  const decoder = createGeminiStreamDecoder(createFixedRuntime());
  const events: StreamEvent[] = [];
  for (const chunk of chunks) events.push(...decoder.push({ data: typeof chunk === 'string' ? chunk : JSON.stringify(chunk) }));
  events.push(...decoder.end());
  return events;
}

const meta = { modelVersion: 'gemini-2.5-flash', responseId: 'R1' };
const text = (t: string, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts: [{ text: t, ...extra }] }, index: 0 }],
  ...meta,
});

describe('createGeminiStreamDecoder', () => {
  test('text deltas stay in one block; usage is cumulative; finish arrives at the end', () => {
    const events = run([
      text('Hel'),
      { ...text('lo'), usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 } },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '!' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
        ...meta,
      },
    ]);
    assert.deepEqual(events, [
      { type: 'response-start', id: 'R1', model: 'gemini-2.5-flash', createdAt: 1_700_000_000_000 },
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'Hel' },
      { type: 'text-delta', id: '0', delta: 'lo' },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 1 } },
      { type: 'text-delta', id: '0', delta: '!' },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 3 } },
      { type: 'text-end', id: '0' },
      { type: 'response-end', finishReason: { unified: 'stop', raw: 'STOP' }, usage: { inputTokens: 5, outputTokens: 3 } },
    ]);
  });

  test('thoughts, then text, then whole function calls; signatures ride on the block ends', () => {
    const events = run([
      text('think', { thought: true }),
      text('ing', { thought: true, thoughtSignature: 'TS' }),
      text('Let me check.'),
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get', args: { id: 1 } }, thoughtSignature: 'FS' }, { functionCall: { id: 'k2', name: 'get', args: { id: 2 } } }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 7, totalTokenCount: 22 },
        ...meta,
      },
    ]);
    assert.deepEqual(events.slice(1), [
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: 'think' },
      { type: 'reasoning-delta', id: '0', delta: 'ing' },
      { type: 'reasoning-end', id: '0', providerMetadata: { gemini: { thoughtSignature: 'TS' } } },
      { type: 'text-start', id: '1' },
      { type: 'text-delta', id: '1', delta: 'Let me check.' },
      { type: 'text-end', id: '1' },
      { type: 'tool-call-start', id: '2', callId: 'call_0001', name: 'get' },
      { type: 'tool-call-delta', id: '2', argumentsDelta: '{"id":1}' },
      { type: 'tool-call-end', id: '2', providerMetadata: { gemini: { thoughtSignature: 'FS' } } },
      { type: 'tool-call-start', id: '3', callId: 'k2', name: 'get' },
      { type: 'tool-call-delta', id: '3', argumentsDelta: '{"id":2}' },
      { type: 'tool-call-end', id: '3' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 12, reasoningTokens: 7 } },
      {
        type: 'response-end',
        finishReason: { unified: 'tool-calls', raw: 'STOP' },
        usage: { inputTokens: 10, outputTokens: 12, reasoningTokens: 7 },
      },
    ]);
    const assembler = createResponseAssembler();
    for (const event of events) assembler.push(event);
    assert.equal(assembler.result().content.length, 4);
  });

  test('MAX_TOKENS becomes length', () => {
    const events = run([{ candidates: [{ content: { parts: [{ text: 'cut' }] }, finishReason: 'MAX_TOKENS' }], ...meta }]);
    assert.deepEqual(events.at(-1), { type: 'response-end', finishReason: { unified: 'length', raw: 'MAX_TOKENS' } });
  });

  test('an error chunk becomes an error event and nothing follows', () => {
    const decoder = createGeminiStreamDecoder(createFixedRuntime());
    decoder.push({ data: JSON.stringify(text('a')) });
    const events = decoder.push({ data: '{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}' });
    assert.equal(events.length, 1);
    const event = events[0];
    assert.ok(event?.type === 'error');
    assert.equal(event.error.code, 'upstream_rate_limited');
    assert.equal(event.error.status, 429);
    assert.match(event.error.message, /quota/);
    assert.deepEqual(decoder.end(), []);
  });

  test('malformed JSON and a stream without finish reason are upstream_invalid_response', () => {
    const bad = run(['{"candidates":[']);
    assert.equal(bad.length, 1);
    assert.ok(bad[0]?.type === 'error' && bad[0].error.code === 'upstream_invalid_response');

    const unfinished = run([text('partial')]);
    assert.deepEqual(
      unfinished.slice(1, 4).map((event) => event.type),
      ['text-start', 'text-delta', 'text-end'],
    );
    const last = unfinished.at(-1);
    assert.ok(last?.type === 'error' && last.error.code === 'upstream_invalid_response');
    assert.match(last.error.message, /finish reason/);
  });

  test('a blocked prompt ends with content-filter', () => {
    const events = run([{ promptFeedback: { blockReason: 'SAFETY' }, ...meta }]);
    assert.deepEqual(events.at(-1), { type: 'response-end', finishReason: { unified: 'content-filter', raw: 'SAFETY' } });
  });
});
