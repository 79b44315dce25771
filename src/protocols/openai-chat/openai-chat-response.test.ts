import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../core/gateway-error.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeOpenAiChatResponse } from './decode-openai-chat-response.ts';
import { decodeOpenAiError } from './decode-openai-error.ts';
import { encodeOpenAiChatResponse } from './encode-openai-chat-response.ts';
import { encodeOpenAiError } from './encode-openai-error.ts';

const upstream = {
  id: 'chatcmpl-up',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o-2024',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Let me check.',
        reasoning_content: 'need weather',
        refusal: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 20,
    total_tokens: 120,
    prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 8 },
  },
  system_fingerprint: 'fp_x',
};

describe('chat responses', () => {
  test('decode reads reasoning, text, tool calls, finish reason and cached usage', () => {
    const { value } = decodeOpenAiChatResponse(upstream, createFixedRuntime());
    assert.deepEqual(value, {
      id: 'chatcmpl-up',
      model: 'gpt-4o-2024',
      createdAt: 1_700_000_000_000,
      content: [
        { type: 'reasoning', text: 'need weather' },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool-call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 64, reasoningTokens: 8 },
    });
  });

  test('decode → encode round trip keeps the wire reply', () => {
    const runtime = createFixedRuntime();
    const encoded = encodeOpenAiChatResponse(decodeOpenAiChatResponse(upstream, runtime).value, runtime);
    assert.deepEqual(encoded, {
      id: 'chatcmpl-up',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-4o-2024',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Let me check.',
            refusal: null,
            reasoning_content: 'need weather',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 8 },
      },
    });
  });

  test('encode maps from unified only, replaces foreign ids and omits unknown usage details', () => {
    const encoded = encodeOpenAiChatResponse(
      {
        id: 'msg_01anthropic',
        model: 'claude',
        createdAt: 1_700_000_000_999,
        content: [{ type: 'text', text: 'cut' }],
        finishReason: { unified: 'length', raw: 'max_tokens' },
        usage: { inputTokens: 3, outputTokens: 4 },
      },
      createFixedRuntime(),
    ) as { id: string; created: number; choices: Array<{ finish_reason: string }>; usage: Record<string, unknown> };
    assert.equal(encoded.id, 'chatcmpl-0001');
    assert.equal(encoded.created, 1_700_000_000);
    assert.equal(encoded.choices[0]?.finish_reason, 'length');
    assert.deepEqual(encoded.usage, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    const filtered = encodeOpenAiChatResponse(
      {
        id: 'chatcmpl-1',
        model: 'm',
        createdAt: 0,
        content: [],
        finishReason: { unified: 'content-filter', raw: 'SAFETY' },
        usage: { inputTokens: 0, outputTokens: 0 },
      },
      createFixedRuntime(),
    ) as { choices: Array<{ finish_reason: string; message: { content: unknown } }> };
    assert.equal(filtered.choices[0]?.finish_reason, 'content_filter');
    assert.equal(filtered.choices[0]?.message.content, '');
  });

  test('stop sequence and unknown finish reasons decode; missing choices is an upstream error', () => {
    const stop = decodeOpenAiChatResponse({ ...upstream, choices: [{ message: { content: 'a' }, finish_reason: 'stop' }] }, createFixedRuntime());
    assert.deepEqual(stop.value.finishReason, { unified: 'stop', raw: 'stop' });
    const odd = decodeOpenAiChatResponse({ choices: [{ message: { content: 'a' }, finish_reason: 'eos' }] }, createFixedRuntime());
    assert.deepEqual(odd.value.finishReason, { unified: 'other', raw: 'eos' });
    assert.equal(odd.value.id, 'chatcmpl-0001');
    assert.deepEqual(odd.value.usage, { inputTokens: 0, outputTokens: 0 });
    for (const junk of [null, [], 'x', { choices: [] }, { choices: [{}] }]) {
      assert.throws(
        () => decodeOpenAiChatResponse(junk, createFixedRuntime()),
        (error: unknown) => error instanceof GatewayError && error.code === 'upstream_invalid_response',
      );
    }
  });

  test('encodeError: status, OpenAI type by status, code, param and the request id', () => {
    const cases: Array<[GatewayError, number, string]> = [
      [new GatewayError('invalid_request', 'Bad.', { param: 'messages' }), 400, 'invalid_request_error'],
      [new GatewayError('invalid_api_key', 'Bad key.'), 401, 'invalid_request_error'],
      [new GatewayError('model_not_allowed_for_key', 'No.'), 403, 'permission_error'],
      [new GatewayError('model_not_found', 'None.'), 404, 'invalid_request_error'],
      [new GatewayError('rate_limited', 'Slow.'), 429, 'rate_limit_error'],
      [new GatewayError('upstream_error', 'Down.'), 502, 'server_error'],
    ];
    for (const [error, status, type] of cases) {
      const encoded = encodeOpenAiError(error, 'req_1');
      assert.equal(encoded.status, status);
      assert.deepEqual(encoded.body, {
        error: { message: `${error.message} (request id: req_1)`, type, param: error.param ?? null, code: error.code },
      });
    }
  });

  test('decodeError tolerates every shape proxies send', () => {
    assert.deepEqual(decodeOpenAiError(429, { error: { message: 'Rate limit', type: 'requests', code: 'rate_limit_exceeded' } }), {
      message: 'Rate limit',
      type: 'requests',
    });
    assert.deepEqual(decodeOpenAiError(400, { error: { message: 'x', code: 'bad' } }), { message: 'x', type: 'bad' });
    assert.deepEqual(decodeOpenAiError(500, { error: 'boom' }), { message: 'boom' });
    assert.deepEqual(decodeOpenAiError(500, { message: 'flat' }), { message: 'flat' });
    assert.deepEqual(decodeOpenAiError(502, 'Bad Gateway'), { message: 'Bad Gateway' });
    assert.deepEqual(decodeOpenAiError(400, '{"error":{"message":"in text"}}'), { message: 'in text' });
    assert.deepEqual(decodeOpenAiError(400, [{ error: { message: 'arr' } }]), { message: 'arr' });
    assert.match(decodeOpenAiError(503, null).message, /HTTP 503/);
    assert.match(decodeOpenAiError(503, '').message, /empty body/);
  });
});
