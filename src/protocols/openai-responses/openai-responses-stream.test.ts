import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createResponseAssembler } from '../shared/assemble-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { createOpenAiResponsesStreamDecoder } from './create-openai-responses-stream-decoder.ts';
import { createOpenAiResponsesStreamEncoder } from './create-openai-responses-stream-encoder.ts';
import { createOpenAiResponsesUsageTap } from './create-openai-responses-usage-tap.ts';

function encode(events: StreamEvent[]): string {
  const encoder = createOpenAiResponsesStreamEncoder(createFixedRuntime());
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

/** Splits encoder output back into SSE messages (our own framing: one event line, one data line). */
function parseSse(wire: string): SseMessage[] {
  return wire
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: (eventLine ?? '').slice('event: '.length), data: (dataLine ?? '').slice('data: '.length) };
    });
}

function decode(messages: SseMessage[], end = true): StreamEvent[] {
  const decoder = createOpenAiResponsesStreamDecoder(createFixedRuntime());
  const events = messages.flatMap((message) => decoder.push(message));
  return end ? [...events, ...decoder.end()] : events;
}

const sse = (payload: Record<string, unknown>): SseMessage => ({ event: String(payload.type), data: JSON.stringify(payload) });

describe('Responses stream encoder', () => {
  test('byte-exact text reply, with a foreign id replaced by a resp_ id', () => {
    const out = encode([
      { type: 'response-start', id: 'chatcmpl-x', model: 'gpt-5', createdAt: 1_700_000_000_000 },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'text-end', id: 't' },
      { type: 'response-end', finishReason: { unified: 'stop' }, usage: { inputTokens: 3, outputTokens: 1 } },
    ]);
    assert.equal(
      out,
      [
        'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_0001","object":"response","created_at":1700000000,"status":"in_progress","background":false,"error":null,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"model":"gpt-5","output":[],"parallel_tool_calls":true,"previous_response_id":null,"reasoning":{"effort":null,"summary":null},"store":false,"temperature":null,"text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"top_p":null,"truncation":"disabled","usage":null,"metadata":{}}}\n\n',
        'event: response.in_progress\ndata: {"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_0001","object":"response","created_at":1700000000,"status":"in_progress","background":false,"error":null,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"model":"gpt-5","output":[],"parallel_tool_calls":true,"previous_response_id":null,"reasoning":{"effort":null,"summary":null},"store":false,"temperature":null,"text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"top_p":null,"truncation":"disabled","usage":null,"metadata":{}}}\n\n',
        'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"msg_0001","type":"message","status":"in_progress","content":[],"role":"assistant"}}\n\n',
        'event: response.content_part.added\ndata: {"type":"response.content_part.added","sequence_number":3,"item_id":"msg_0001","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}\n\n',
        'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_0001","output_index":0,"content_index":0,"delta":"Hi","logprobs":[]}\n\n',
        'event: response.output_text.done\ndata: {"type":"response.output_text.done","sequence_number":5,"item_id":"msg_0001","output_index":0,"content_index":0,"text":"Hi","logprobs":[]}\n\n',
        'event: response.content_part.done\ndata: {"type":"response.content_part.done","sequence_number":6,"item_id":"msg_0001","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi"}}\n\n',
        'event: response.output_item.done\ndata: {"type":"response.output_item.done","sequence_number":7,"output_index":0,"item":{"id":"msg_0001","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi"}],"role":"assistant"}}\n\n',
        'event: response.completed\ndata: {"type":"response.completed","sequence_number":8,"response":{"id":"resp_0001","object":"response","created_at":1700000000,"status":"completed","background":false,"error":null,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"model":"gpt-5","output":[{"id":"msg_0001","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi"}],"role":"assistant"}],"parallel_tool_calls":true,"previous_response_id":null,"reasoning":{"effort":null,"summary":null},"store":false,"temperature":null,"text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"top_p":null,"truncation":"disabled","usage":{"input_tokens":3,"input_tokens_details":{"cached_tokens":0},"output_tokens":1,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":4},"metadata":{}}}\n\n',
      ].join(''),
    );
  });

  test('tool calls and reasoning: sequence numbers count up, every item is added then done in full', () => {
    const out = encode([
      { type: 'response-start', id: 'resp_1', model: 'gpt-5', createdAt: 1_700_000_000_000 },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'plan' },
      { type: 'reasoning-end', id: 'r', signature: 'anthropic-only' },
      { type: 'tool-call-start', id: 'c', callId: 'call_1', name: 'shell' },
      { type: 'tool-call-delta', id: 'c', argumentsDelta: '{"cmd":' },
      { type: 'tool-call-delta', id: 'c', argumentsDelta: '"ls"}' },
      { type: 'tool-call-end', id: 'c' },
      { type: 'response-end', finishReason: { unified: 'tool-calls' }, usage: { inputTokens: 5, outputTokens: 9, reasoningTokens: 4 } },
    ]);
    const messages = parseSse(out);
    const payloads = messages.map((message) => JSON.parse(message.data) as Record<string, unknown>);
    assert.deepEqual(
      payloads.map((payload) => payload.sequence_number),
      payloads.map((_, index) => index),
    );
    assert.deepEqual(
      messages.map((message) => message.event),
      payloads.map((payload) => payload.type),
    );
    assert.deepEqual(
      messages.map((message) => message.event),
      [
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.reasoning_summary_part.added',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.done',
        'response.reasoning_summary_part.done',
        'response.output_item.done',
        'response.output_item.added',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.output_item.done',
        'response.completed',
      ],
    );
    assert.deepEqual(payloads[12]?.item, {
      id: 'fc_0001',
      type: 'function_call',
      status: 'completed',
      arguments: '{"cmd":"ls"}',
      call_id: 'call_1',
      name: 'shell',
    });
    const final = payloads[13]?.response as { id: string; output: unknown[]; usage: unknown };
    assert.equal(final.id, 'resp_1');
    assert.deepEqual(final.output, [{ id: 'rs_0001', type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }] }, payloads[12]?.item]);
    assert.deepEqual(final.usage, {
      input_tokens: 5,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 4 },
      total_tokens: 14,
    });
    assert.ok(!out.includes('[DONE]'));
  });

  test('content filter ends as response.incomplete; an error as response.failed and nothing after', () => {
    const filtered = parseSse(
      encode([
        { type: 'response-start', id: 'resp_1', model: 'm', createdAt: 0 },
        { type: 'response-end', finishReason: { unified: 'content-filter', raw: 'SAFETY' } },
      ]),
    ).at(-1);
    assert.equal(filtered?.event, 'response.incomplete');
    const response = JSON.parse(filtered?.data ?? '{}').response;
    assert.equal(response.status, 'incomplete');
    assert.deepEqual(response.incomplete_details, { reason: 'content_filter' });

    const failed = parseSse(
      encode([
        { type: 'error', error: new GatewayError('upstream_timeout', 'The upstream stopped answering.') },
        { type: 'response-end', finishReason: { unified: 'stop' } },
      ]),
    );
    assert.deepEqual(
      failed.map((message) => message.event),
      ['response.created', 'response.in_progress', 'response.failed'],
    );
    const body = JSON.parse(failed[2]?.data ?? '{}').response;
    assert.equal(body.id, 'resp_0001');
    assert.equal(body.status, 'failed');
    assert.deepEqual(body.error, { code: 'server_error', message: 'The upstream stopped answering.' });
  });
});

describe('Responses stream decoder', () => {
  test('decodes what the encoder writes back into the same response', () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'resp_1', model: 'gpt-5', createdAt: 1_700_000_000_000 },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'plan' },
      { type: 'reasoning-end', id: 'r', providerMetadata: { openai: { encryptedContent: 'gAAA' } } },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Running ' },
      { type: 'text-delta', id: 't', delta: 'ls.' },
      { type: 'text-end', id: 't' },
      { type: 'tool-call-start', id: 'c', callId: 'call_1', name: 'shell' },
      { type: 'tool-call-delta', id: 'c', argumentsDelta: '{"cmd":"ls"}' },
      { type: 'tool-call-end', id: 'c' },
      { type: 'response-end', finishReason: { unified: 'tool-calls' }, usage: { inputTokens: 5, outputTokens: 9, cacheReadTokens: 2 } },
    ];
    const decoded = decode(parseSse(encode(events)));
    const assembler = createResponseAssembler();
    for (const event of decoded) assembler.push(event);
    assert.deepEqual(assembler.result(), {
      id: 'resp_1',
      model: 'gpt-5',
      createdAt: 1_700_000_000_000,
      content: [
        { type: 'reasoning', text: 'plan', providerMetadata: { openai: { itemId: 'rs_0001', encryptedContent: 'gAAA' } } },
        { type: 'text', text: 'Running ls.', providerMetadata: { openai: { itemId: 'msg_0001' } } },
        { type: 'tool-call', callId: 'call_1', name: 'shell', arguments: '{"cmd":"ls"}', providerMetadata: { openai: { itemId: 'fc_0001' } } },
      ],
      finishReason: { unified: 'tool-calls', raw: 'completed' },
      usage: { inputTokens: 5, outputTokens: 9, cacheReadTokens: 2, reasoningTokens: 0 },
    });
  });

  test('arguments only in output_item.done, custom tool input and multi-part summaries', () => {
    const events = decode([
      sse({ type: 'response.created', response: { id: 'resp_9', model: 'm', created_at: 1, output: [] } }),
      sse({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } }),
      sse({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 0, delta: 'a' }),
      sse({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 1, delta: 'b' }),
      sse({ type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } }),
      sse({ type: 'response.output_item.added', output_index: 1, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' } }),
      sse({
        type: 'response.output_item.done',
        output_index: 1,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"x":1}' },
      }),
      sse({
        type: 'response.output_item.added',
        output_index: 2,
        item: { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_2', name: 'apply_patch', input: '' },
      }),
      sse({ type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', delta: 'line "1"\n' }),
      sse({
        type: 'response.output_item.done',
        output_index: 2,
        item: { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_2', name: 'apply_patch', input: 'line "1"\n' },
      }),
      sse({
        type: 'response.completed',
        response: { id: 'resp_9', status: 'completed', output: [], usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } },
      }),
    ]);
    const assembler = createResponseAssembler();
    for (const event of events) assembler.push(event);
    const content = assembler.result().content;
    assert.equal(content[0]?.type === 'reasoning' && content[0].text, 'a\n\nb');
    assert.equal(content[1]?.type === 'tool-call' && content[1].arguments, '{"x":1}');
    assert.ok(content[2]?.type === 'tool-call');
    assert.deepEqual(JSON.parse(content[2].arguments), { input: 'line "1"\n' });
    assert.deepEqual(assembler.result().finishReason, { unified: 'tool-calls', raw: 'completed' });
  });

  test('incomplete maps to length; response.failed, error events, malformed JSON and early EOF become errors', () => {
    const cut = decode([
      sse({ type: 'response.created', response: { id: 'r', model: 'm', created_at: 1 } }),
      sse({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Once' }),
      sse({ type: 'response.incomplete', response: { id: 'r', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } }),
    ]);
    assert.deepEqual(
      cut.map((event) => event.type),
      ['response-start', 'text-start', 'text-delta', 'text-end', 'response-end'],
    );
    assert.deepEqual(cut.at(-1), { type: 'response-end', finishReason: { unified: 'length', raw: 'max_output_tokens' } });

    const failures: Array<[SseMessage[], string, RegExp]> = [
      [[sse({ type: 'response.failed', response: { id: 'r', status: 'failed', error: { code: 'server_error', message: 'Boom' } } })], 'upstream_error', /Boom/],
      [[sse({ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down' })], 'upstream_error', /Slow down/],
      [[{ event: 'response.created', data: '{"type":' }], 'upstream_invalid_response', /not JSON/],
      [[sse({ type: 'response.created', response: { id: 'r' } })], 'upstream_invalid_response', /ended early/],
    ];
    for (const [messages, code, message] of failures) {
      const events = decode(messages);
      const last = events.at(-1);
      assert.ok(last?.type === 'error', JSON.stringify(events));
      assert.equal(last.error.code, code);
      assert.match(last.error.message, message);
      assert.equal(events.filter((event) => event.type === 'error').length, 1);
    }
  });
});

test('usage tap reads only the final lifecycle event', () => {
  const tap = createOpenAiResponsesUsageTap();
  tap.observe(sse({ type: 'response.output_text.delta', delta: '"usage":{"input_tokens":99}' }));
  assert.equal(tap.usage(), undefined);
  tap.observe(
    sse({
      type: 'response.completed',
      response: { usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10, input_tokens_details: { cached_tokens: 5 } } },
    }),
  );
  assert.deepEqual(tap.usage(), { inputTokens: 7, outputTokens: 3, cacheReadTokens: 5 });
  const bare = createOpenAiResponsesUsageTap();
  bare.observe({ data: JSON.stringify({ type: 'response.incomplete', response: { usage: { input_tokens: 1, output_tokens: 2 } } }) });
  assert.deepEqual(bare.usage(), { inputTokens: 1, outputTokens: 2 });
});

test('leading items (a compaction item the gateway made) come first, numbered before the model’s items, and stay in the final output', () => {
  const item = { type: 'compaction', id: 'cmp_1', encrypted_content: 'sealed' };
  const encoder = createOpenAiResponsesStreamEncoder(createFixedRuntime(), { leadingItems: [item] });
  const wire = [
    encoder.push({ type: 'response-start', id: 'resp_1', model: 'gpt-5', createdAt: 1_700_000_000_000 }),
    encoder.push({ type: 'text-start', id: 't' }),
    encoder.push({ type: 'text-delta', id: 't', delta: 'Hi' }),
    encoder.push({ type: 'text-end', id: 't' }),
    encoder.push({ type: 'response-end', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: 1, outputTokens: 1 } }),
  ].join('');
  const events = parseSse(wire).map((message) => JSON.parse(message.data) as Record<string, any>);
  assert.deepEqual(
    events.slice(0, 4).map((event) => event.type),
    ['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done'],
  );
  assert.deepEqual(events[2]!.item, item);
  assert.equal(events[2]!.output_index, 0);
  assert.equal(events.find((event) => event.type === 'response.output_item.added' && event.item.type === 'message')!.output_index, 1);
  const completed = events.at(-1)!;
  assert.equal(completed.type, 'response.completed');
  assert.deepEqual(
    completed.response.output.map((one: Record<string, unknown>) => one.type),
    ['compaction', 'message'],
  );
  assert.deepEqual(
    events.map((event) => event.sequence_number),
    events.map((_, index) => index),
  );
});
