import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StreamEvent } from '../../src/core/stream-event.ts';
import type { Usage } from '../../src/core/usage.ts';
import { buildLedgerEntries, rawUsageText } from '../../src/ledger/build-ledger-entries.ts';
import { getCodec } from '../../src/protocols/codec-registry.ts';
import type { SseMessage } from '../../src/protocols/sse/sse-message.ts';
import { createFixedRuntime } from '../helpers/fixed-runtime.ts';

type Upstream = Parameters<typeof getCodec>[0];

/** The usage the translated lane bills: the last one a stream decoder passes on. */
function streamedUsage(protocol: Upstream, messages: SseMessage[]): Usage | undefined {
  const decoder = getCodec(protocol).createStreamDecoder(createFixedRuntime());
  let usage: Usage | undefined;
  for (const event of [...messages.flatMap((message) => decoder.push(message)), ...decoder.end()] as StreamEvent[]) {
    if (event.type === 'usage') usage = event.usage;
    if (event.type === 'response-end' && event.usage) usage = event.usage;
  }
  return usage;
}

/** The usage the passthrough lane bills: its tap's. */
function tappedUsage(protocol: Upstream, messages: SseMessage[]): Usage | undefined {
  const tap = getCodec(protocol).createUsageTap();
  for (const message of messages) tap.observe(message);
  return tap.usage();
}

const sse = (data: unknown, event?: string): SseMessage => ({ ...(event === undefined ? {} : { event }), data: JSON.stringify(data) });

test("each upstream kind's decoded usage carries the upstream's own object, unseen by spreads, JSON and deep equality", () => {
  const context = createFixedRuntime();
  const openai = { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 } };
  const chat = getCodec('openai-chat').decodeResponse(
    {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: openai,
    },
    context,
  ).value.usage;
  assert.equal(chat.upstream, openai, 'the parsed wire object itself, not a copy');
  assert.deepEqual(chat, { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 1024 });
  assert.equal(JSON.stringify(chat).includes('upstream'), false);
  assert.equal(Object.hasOwn({ ...chat }, 'upstream'), false);

  const anthropic = {
    input_tokens: 10,
    cache_read_input_tokens: 500,
    cache_creation_input_tokens: 300,
    cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
    output_tokens: 40,
    service_tier: 'standard',
  };
  const message = getCodec('anthropic-messages').decodeResponse(
    { id: 'msg', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: anthropic },
    context,
  ).value.usage;
  assert.equal(message.upstream, anthropic);

  const gemini = { promptTokenCount: 900, cachedContentTokenCount: 512, candidatesTokenCount: 30, thoughtsTokenCount: 12, totalTokenCount: 942 };
  const generated = getCodec('gemini-generate-content').decodeResponse(
    { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }], usageMetadata: gemini },
    context,
  ).value.usage;
  assert.equal(generated.upstream, gemini);

  const bedrock = { inputTokens: 15, outputTokens: 10, totalTokens: 125, cacheReadInputTokens: 100 };
  const converse = getCodec('bedrock-converse').decodeResponse(
    { output: { message: { role: 'assistant', content: [{ text: 'ok' }] } }, stopReason: 'end_turn', usage: bedrock },
    context,
  ).value.usage;
  assert.equal(converse.upstream, bedrock);
});

test('streams: the object of the usage event (Anthropic: message_start’s and message_delta’s, each as sent), on both lanes', () => {
  const start = { input_tokens: 10, cache_read_input_tokens: 500, cache_creation_input_tokens: 0, output_tokens: 1 };
  const delta = { output_tokens: 42 };
  const anthropic = [
    sse({ type: 'message_start', message: { id: 'msg', type: 'message', role: 'assistant', model: 'claude', content: [], usage: start } }, 'message_start'),
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }, 'content_block_delta'),
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: delta }, 'message_delta'),
    sse({ type: 'message_stop' }, 'message_stop'),
  ];
  for (const usage of [streamedUsage('anthropic-messages', anthropic), tappedUsage('anthropic-messages', anthropic)]) {
    assert.deepEqual(usage?.upstream, { message_start: start, message_delta: delta });
    assert.equal(usage?.outputTokens, 42);
  }

  const final = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
  const chat = [
    sse({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: null }],
      usage: null,
    }),
    sse({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null }),
    sse({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: final }),
  ];
  assert.deepEqual(streamedUsage('openai-chat', chat)?.upstream, final);
  assert.deepEqual(tappedUsage('openai-chat', chat)?.upstream, final);

  const partial = { promptTokenCount: 900, totalTokenCount: 900 };
  const last = { promptTokenCount: 900, candidatesTokenCount: 30, totalTokenCount: 930 };
  const gemini = [
    sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'o' }] } }], usageMetadata: partial }),
    sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'k' }] }, finishReason: 'STOP' }], usageMetadata: last }),
  ];
  assert.deepEqual(streamedUsage('gemini-generate-content', gemini)?.upstream, last);
  assert.deepEqual(tappedUsage('gemini-generate-content', gemini)?.upstream, last);
});

test('the ledger keeps the committed attempt’s upstream object as JSON text, bounded at 4,096 characters with a flag', () => {
  assert.deepEqual(rawUsageText(undefined), { text: null, truncated: false });
  assert.deepEqual(rawUsageText({ prompt_tokens: 1 }), { text: '{"prompt_tokens":1}', truncated: false });
  const huge = rawUsageText({ details: 'x'.repeat(10_000) });
  assert.equal(huge.truncated, true);
  assert.equal(huge.text?.length, 4096);

  const reported = getCodec('openai-chat').decodeResponse(
    {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
    },
    createFixedRuntime(),
  ).value.usage;
  const rows = buildLedgerEntries(
    {
      requestId: 'r',
      time: 0,
      model: 'm',
      group: 'g',
      keyId: 'k',
      accountId: null,
      upstreamProtocol: 'openai-chat',
      attempts: [
        { channelId: 'a', status: null, errorCode: 'first_byte_timeout' },
        { channelId: 'b', status: 200, errorCode: null },
      ],
      committed: 1,
      reported,
      billed: reported,
      charge: undefined,
      estimatedInputTokens: 100,
    },
    () => undefined,
  );
  assert.deepEqual(
    rows.attempts.map((attempt) => [attempt.rawUsage, attempt.rawUsageTruncated]),
    [
      [null, false],
      ['{"prompt_tokens":100,"completion_tokens":5,"total_tokens":105}', false],
    ],
  );
});
