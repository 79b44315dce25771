import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatResponse } from '../../core/chat-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeGeminiResponse } from './decode-gemini-response.ts';
import { encodeGeminiResponse } from './encode-gemini-response.ts';

const decode = (body: unknown) => decodeGeminiResponse(body, createFixedRuntime());

describe('decodeGeminiResponse', () => {
  test('text, thoughts with signature, usage with cache and thoughts', () => {
    const { value } = decode({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'pondering', thought: true },
              { text: 'Hello', thoughtSignature: 'SIG' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
          safetyRatings: [],
        },
      ],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 44, thoughtsTokenCount: 186, cachedContentTokenCount: 60, totalTokenCount: 330 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'r-1',
    });
    assert.deepEqual(value, {
      id: 'r-1',
      model: 'gemini-2.5-flash',
      createdAt: 1_700_000_000_000,
      content: [
        { type: 'reasoning', text: 'pondering' },
        { type: 'text', text: 'Hello', providerMetadata: { gemini: { thoughtSignature: 'SIG' } } },
      ],
      finishReason: { unified: 'stop', raw: 'STOP' },
      usage: { inputTokens: 100, outputTokens: 230, cacheReadTokens: 60, reasoningTokens: 186 },
    });
  });

  test('STOP with function calls is tool-calls; missing ids are synthesised', () => {
    const { value } = decode({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'a', args: { x: 1 } }, thoughtSignature: 'S' }, { functionCall: { id: 'given', name: 'b' } }],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
    });
    assert.deepEqual(value.content, [
      { type: 'tool-call', callId: 'call_0001', name: 'a', arguments: '{"x":1}', providerMetadata: { gemini: { thoughtSignature: 'S' } } },
      { type: 'tool-call', callId: 'given', name: 'b', arguments: '{}' },
    ]);
    assert.deepEqual(value.finishReason, { unified: 'tool-calls', raw: 'STOP' });
    assert.deepEqual(value.usage, { inputTokens: 3, outputTokens: 2 });
    assert.equal(value.id, 'resp_0001');
  });

  test('finish reasons', () => {
    const reason = (finishReason: string) => decode({ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason }] }).value.finishReason.unified;
    assert.equal(reason('MAX_TOKENS'), 'length');
    for (const raw of ['SAFETY', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE', 'RECITATION']) {
      assert.equal(reason(raw), 'content-filter', raw);
    }
    for (const raw of ['MALFORMED_FUNCTION_CALL', 'OTHER', 'FINISH_REASON_UNSPECIFIED', 'SOMETHING_NEW']) {
      assert.equal(reason(raw), 'other', raw);
    }
  });

  test('a blocked prompt (no candidates) is a content-filter finish with empty content', () => {
    const { value } = decode({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } });
    assert.deepEqual(value.content, []);
    assert.deepEqual(value.finishReason, { unified: 'content-filter', raw: 'PROHIBITED_CONTENT' });
    assert.deepEqual(value.usage, { inputTokens: 9, outputTokens: 0 });
  });

  test('junk bodies are upstream_invalid_response; an error body is an upstream error', () => {
    assert.throws(
      () => decode('nope'),
      (error: unknown) => error instanceof GatewayError && error.code === 'upstream_invalid_response',
    );
    assert.throws(
      () => decode({ error: { code: 500, message: 'backend down', status: 'INTERNAL' } }),
      (error: unknown) => error instanceof GatewayError && error.code === 'upstream_error' && /backend down/.test(error.message),
    );
  });
});

describe('encodeGeminiResponse', () => {
  const response: ChatResponse = {
    id: 'resp-9',
    model: 'my-model',
    createdAt: 0,
    content: [
      { type: 'reasoning', text: 'hmm', signature: 'anthropic-only' },
      { type: 'text', text: '' },
      { type: 'text', text: 'Hi', providerMetadata: { gemini: { thoughtSignature: 'T' } } },
      { type: 'tool-call', callId: 'c1', name: 'f', arguments: '{"a":1}' },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: { inputTokens: 100, outputTokens: 30, reasoningTokens: 10, cacheReadTokens: 40 },
  };

  test('one candidate with model parts, STOP for tool calls, usage split back out', () => {
    assert.deepEqual(encodeGeminiResponse(response, createFixedRuntime()), {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ text: 'hmm', thought: true }, { text: 'Hi', thoughtSignature: 'T' }, { functionCall: { id: 'c1', name: 'f', args: { a: 1 } } }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 130, thoughtsTokenCount: 10, cachedContentTokenCount: 40 },
      modelVersion: 'my-model',
      responseId: 'resp-9',
    });
  });

  test('unified finish reasons map without leaking raw words', () => {
    const finish = (unified: ChatResponse['finishReason']['unified']) =>
      encodeGeminiResponse({ ...response, finishReason: { unified, raw: 'end_turn' } }, createFixedRuntime()).candidates[0]?.finishReason;
    assert.equal(finish('stop'), 'STOP');
    assert.equal(finish('length'), 'MAX_TOKENS');
    assert.equal(finish('content-filter'), 'SAFETY');
    assert.equal(finish('other'), 'OTHER');
    assert.equal(finish('error'), 'OTHER');
  });

  test('usage survives encode → decode', () => {
    const encoded = encodeGeminiResponse(response, createFixedRuntime());
    assert.deepEqual(decode(encoded).value.usage, response.usage);
  });
});
