import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../core/gateway-error.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeOpenAiResponsesResponse } from './decode-openai-responses-response.ts';
import { encodeOpenAiResponsesResponse } from './encode-openai-responses-response.ts';
import { createOpenAiResponsesStreamEncoder } from './create-openai-responses-stream-encoder.ts';

const upstream = {
  id: 'resp_up',
  object: 'response',
  created_at: 1_700_000_000,
  status: 'completed',
  model: 'gpt-5',
  output: [
    { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'gAAA' },
    { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Calling.', annotations: [] }] },
    { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"cmd":"ls"}', status: 'completed' },
    { id: 'ws_1', type: 'web_search_call', status: 'completed' },
  ],
  usage: {
    input_tokens: 50,
    input_tokens_details: { cached_tokens: 32 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 12 },
    total_tokens: 70,
  },
  error: null,
  incomplete_details: null,
  some_new_field: true,
};

describe('Responses non-streamed replies', () => {
  test('decode keeps item ids, encrypted reasoning, tool calls and cached usage', () => {
    const { value } = decodeOpenAiResponsesResponse(upstream, createFixedRuntime());
    assert.deepEqual(value, {
      id: 'resp_up',
      model: 'gpt-5',
      createdAt: 1_700_000_000_000,
      content: [
        { type: 'reasoning', text: 'plan', providerMetadata: { openai: { itemId: 'rs_1', encryptedContent: 'gAAA' } } },
        { type: 'text', text: 'Calling.', providerMetadata: { openai: { itemId: 'msg_1' } } },
        { type: 'tool-call', callId: 'call_1', name: 'shell', arguments: '{"cmd":"ls"}', providerMetadata: { openai: { itemId: 'fc_1' } } },
      ],
      finishReason: { unified: 'tool-calls', raw: 'completed' },
      // The web_search_call item is one search, billed apart from tokens when priced.
      usage: { inputTokens: 50, outputTokens: 20, cacheReadTokens: 32, reasoningTokens: 12, webSearchRequests: 1 },
    });
  });

  test('decode → encode gives back the same items, ids and usage', () => {
    const runtime = createFixedRuntime();
    const encoded = encodeOpenAiResponsesResponse(decodeOpenAiResponsesResponse(upstream, runtime).value, runtime);
    assert.equal(encoded.id, 'resp_up');
    assert.equal(encoded.created_at, 1_700_000_000);
    assert.equal(encoded.status, 'completed');
    assert.equal(encoded.incomplete_details, null);
    assert.deepEqual(encoded.output, [
      { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'gAAA' },
      {
        id: 'msg_1',
        type: 'message',
        status: 'completed',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Calling.' }],
        role: 'assistant',
      },
      { id: 'fc_1', type: 'function_call', status: 'completed', arguments: '{"cmd":"ls"}', call_id: 'call_1', name: 'shell' },
    ]);
    assert.deepEqual(encoded.usage, upstream.usage);
  });

  test('foreign replies get OpenAI ids; length and content filter become incomplete', () => {
    const runtime = createFixedRuntime();
    const base = { model: 'claude', createdAt: 1_700_000_000_000, usage: { inputTokens: 1, outputTokens: 1 } };
    const cut = encodeOpenAiResponsesResponse(
      { ...base, id: 'msg_01abc', content: [{ type: 'text', text: 'x' }], finishReason: { unified: 'length', raw: 'max_tokens' } },
      runtime,
    );
    assert.equal(cut.id, 'resp_0001');
    assert.equal(cut.status, 'incomplete');
    assert.deepEqual(cut.incomplete_details, { reason: 'max_output_tokens' });
    assert.equal((cut.output as Array<{ id: string }>)[0]?.id, 'msg_0001');
    const filtered = encodeOpenAiResponsesResponse({ ...base, id: 'x', content: [], finishReason: { unified: 'content-filter', raw: 'refusal' } }, runtime);
    assert.deepEqual(filtered.incomplete_details, { reason: 'content_filter' });

    const incomplete = decodeOpenAiResponsesResponse(
      { ...upstream, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] },
      runtime,
    );
    assert.deepEqual(incomplete.value.finishReason, { unified: 'length', raw: 'max_output_tokens' });
    const plain = decodeOpenAiResponsesResponse({ ...upstream, output: [upstream.output[1]] }, runtime);
    assert.deepEqual(plain.value.finishReason, { unified: 'stop', raw: 'completed' });
  });

  test('failed and unreadable upstream responses are errors', () => {
    assert.throws(
      () => decodeOpenAiResponsesResponse({ ...upstream, status: 'failed', error: { code: 'server_error', message: 'Boom' } }, createFixedRuntime()),
      (error: unknown) => error instanceof GatewayError && error.code === 'upstream_error' && error.message === 'Boom',
    );
    for (const junk of [null, 'x', [], { id: 'r' }]) {
      assert.throws(
        () => decodeOpenAiResponsesResponse(junk, createFixedRuntime()),
        (error: unknown) => error instanceof GatewayError && error.code === 'upstream_invalid_response',
      );
    }
  });

  test('the response object echoes store and previous_response_id when the gateway keeps the turn (plain and streamed)', () => {
    const runtime = createFixedRuntime();
    const reply = decodeOpenAiResponsesResponse(upstream, runtime).value;
    const unset = encodeOpenAiResponsesResponse(reply, runtime);
    assert.equal(unset.store, false);
    assert.equal(unset.previous_response_id, null);
    const responseState = { store: true, previousResponseId: 'resp_earlier' };
    const kept = encodeOpenAiResponsesResponse(reply, runtime, { responseState });
    assert.equal(kept.store, true);
    assert.equal(kept.previous_response_id, 'resp_earlier');

    const encoder = createOpenAiResponsesStreamEncoder(runtime, { responseState });
    const wire =
      encoder.push({ type: 'response-start', id: 'x', model: 'gpt-5', createdAt: 1_700_000_000_000 }) +
      encoder.push({ type: 'response-end', finishReason: { unified: 'stop' }, usage: { inputTokens: 1, outputTokens: 1 } });
    const objects = wire
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => (JSON.parse(line.slice('data: '.length)) as { response: Record<string, unknown> }).response);
    assert.equal(objects.length, 3, 'created, in_progress, completed');
    for (const object of objects) {
      assert.equal(object.store, true);
      assert.equal(object.previous_response_id, 'resp_earlier');
    }
  });
});
