import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createResponseAssembler } from '../shared/assemble-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { createOpenAiChatStreamDecoder } from './create-openai-chat-stream-decoder.ts';
import { createOpenAiChatStreamEncoder } from './create-openai-chat-stream-encoder.ts';
import { createOpenAiChatUsageTap } from './create-openai-chat-usage-tap.ts';

const head = '"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o"';
const chunk = (choice: string, usage = '') => `{${head},"choices":[${choice}]${usage}}`;

function decodeAll(datas: string[], end = true): StreamEvent[] {
  const decoder = createOpenAiChatStreamDecoder(createFixedRuntime());
  const events = datas.flatMap((data) => decoder.push({ data }));
  return end ? [...events, ...decoder.end()] : events;
}

describe('chat stream decoder', () => {
  test('text with usage after finish: blocks are synthesised, response-end waits for [DONE]', () => {
    const events = decodeAll([
      chunk('{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}', ',"usage":null'),
      chunk('{"index":0,"delta":{"content":"Hel"},"finish_reason":null}', ',"usage":null'),
      chunk('{"index":0,"delta":{"content":"lo"},"finish_reason":null}', ',"usage":null'),
      chunk('{"index":0,"delta":{},"finish_reason":"stop"}', ',"usage":null'),
      chunk('', ',"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":4}}'),
      '[DONE]',
    ]);
    const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 };
    assert.deepEqual(events, [
      { type: 'response-start', id: 'chatcmpl-1', model: 'gpt-4o', createdAt: 1_700_000_000_000 },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'Hel' },
      { type: 'text-delta', id: 'text-0', delta: 'lo' },
      { type: 'text-end', id: 'text-0' },
      { type: 'usage', usage },
      { type: 'response-end', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]);
  });

  test('reasoning then parallel tool calls with fragments split across chunks and the name arriving late', () => {
    const events = decodeAll([
      chunk('{"index":0,"delta":{"role":"assistant","reasoning_content":"think"},"finish_reason":null}'),
      chunk(
        '{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}',
      ),
      chunk('{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"ci"}}]},"finish_reason":null}'),
      chunk('{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\\":\\"Paris\\"}"}}]},"finish_reason":null}'),
      chunk('{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"arguments":"{}"}}]},"finish_reason":null}'),
      chunk('{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"name":"get_time"}}]},"finish_reason":null}'),
      chunk('{"index":0,"delta":{},"finish_reason":"tool_calls"}'),
    ]);
    assert.deepEqual(events.slice(1), [
      { type: 'reasoning-start', id: 'reasoning-0' },
      { type: 'reasoning-delta', id: 'reasoning-0', delta: 'think' },
      { type: 'reasoning-end', id: 'reasoning-0' },
      { type: 'tool-call-start', id: 'tool-1', callId: 'call_a', name: 'get_weather' },
      { type: 'tool-call-delta', id: 'tool-1', argumentsDelta: '{"ci' },
      { type: 'tool-call-delta', id: 'tool-1', argumentsDelta: 'ty":"Paris"}' },
      { type: 'tool-call-end', id: 'tool-1' },
      { type: 'tool-call-start', id: 'tool-2', callId: 'call_b', name: 'get_time' },
      { type: 'tool-call-delta', id: 'tool-2', argumentsDelta: '{}' },
      { type: 'tool-call-end', id: 'tool-2' },
      // No [DONE]: the end of the body after a finish reason still completes the response.
      { type: 'response-end', finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
    const assembler = createResponseAssembler();
    for (const event of events) assembler.push(event);
    assert.deepEqual(
      assembler.result().content.map((part) => (part.type === 'tool-call' ? part.arguments : part.text)),
      ['think', '{"city":"Paris"}', '{}'],
    );
  });

  test('an error object mid-stream closes the open block and reports the upstream message', () => {
    const events = decodeAll([
      chunk('{"index":0,"delta":{"content":"par"},"finish_reason":null}'),
      '{"error":{"message":"The server had an error","type":"server_error","code":null}}',
      chunk('{"index":0,"delta":{"content":"ignored"},"finish_reason":null}'),
    ]);
    assert.deepEqual(
      events.slice(1, 4).map((event) => event.type),
      ['text-start', 'text-delta', 'text-end'],
    );
    const last = events.at(-1);
    assert.equal(events.length, 5);
    assert.ok(last?.type === 'error');
    assert.equal(last.error.code, 'upstream_error');
    assert.equal(last.error.message, 'The server had an error');
  });

  test('malformed JSON is an invalid-response error; so is a stream that ends before a finish reason', () => {
    const malformed = decodeAll([chunk('{"index":0,"delta":{"content":"a"},"finish_reason":null}'), '{"id":']);
    const error = malformed.at(-1);
    assert.ok(error?.type === 'error' && error.error.code === 'upstream_invalid_response');
    assert.equal(malformed.filter((event) => event.type === 'error').length, 1);

    const early = decodeAll([chunk('{"index":0,"delta":{"content":"a"},"finish_reason":null}')]);
    assert.deepEqual(
      early.slice(1, 4).map((event) => event.type),
      ['text-start', 'text-delta', 'text-end'],
    );
    const cut = early.at(-1);
    assert.ok(cut?.type === 'error');
    assert.equal(cut.error.code, 'upstream_invalid_response');
    assert.match(cut.error.message, /ended early/);
    assert.ok(!early.some((event) => event.type === 'response-end'));
  });
});

describe('chat stream encoder', () => {
  const events: StreamEvent[] = [
    { type: 'response-start', id: 'msg_foreign', model: 'gpt-4o', createdAt: 1_700_000_000_500 },
    { type: 'reasoning-start', id: 'r' },
    { type: 'reasoning-delta', id: 'r', delta: 'hm' },
    { type: 'reasoning-end', id: 'r' },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'Hi' },
    { type: 'text-end', id: 't' },
    { type: 'tool-call-start', id: 'c', callId: 'call_1', name: 'f' },
    { type: 'tool-call-delta', id: 'c', argumentsDelta: '{"a":1}' },
    { type: 'tool-call-end', id: 'c' },
    { type: 'usage', usage: { inputTokens: 5, outputTokens: 7, reasoningTokens: 2 } },
    { type: 'response-end', finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
  ];
  const h = '{"id":"chatcmpl-0001","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"delta":';

  test('byte-exact with include_usage', () => {
    const encoder = createOpenAiChatStreamEncoder(createFixedRuntime(), { includeUsage: true });
    const out = events.map((event) => encoder.push(event)).join('') + encoder.end();
    assert.equal(
      out,
      `data: ${h}{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `data: ${h}{"reasoning_content":"hm"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `data: ${h}{"content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `data: ${h}{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `data: ${h}{"tool_calls":[{"index":0,"function":{"arguments":"{\\"a\\":1}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `data: ${h}{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}\n\n` +
        'data: {"id":"chatcmpl-0001","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12,"completion_tokens_details":{"reasoning_tokens":2}}}\n\n' +
        'data: [DONE]\n\n',
    );
  });

  test('without include_usage there is no usage field and no usage chunk', () => {
    const encoder = createOpenAiChatStreamEncoder(createFixedRuntime());
    const out = events.map((event) => encoder.push(event)).join('') + encoder.end();
    assert.ok(!out.includes('"usage"'));
    assert.ok(out.endsWith(`"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n`));
  });

  test('an error is written as an OpenAI error object and ends the stream without [DONE]', () => {
    const encoder = createOpenAiChatStreamEncoder(createFixedRuntime(), { includeUsage: true });
    let out = encoder.push(events[0] as StreamEvent);
    out += encoder.push({ type: 'error', error: new GatewayError('upstream_timeout', 'The upstream stopped answering.') });
    out += encoder.push({ type: 'response-end', finishReason: { unified: 'stop' } });
    out += encoder.end();
    assert.ok(out.endsWith('data: {"error":{"message":"The upstream stopped answering.","type":"server_error","code":"upstream_timeout","param":null}}\n\n'));
    assert.ok(!out.includes('[DONE]'));
  });

  test('decoder output re-encodes to the same text, tool calls and finish reason', () => {
    const encoder = createOpenAiChatStreamEncoder(createFixedRuntime(), { includeUsage: true });
    const wire = events.map((event) => encoder.push(event)).join('') + encoder.end();
    const decoder = createOpenAiChatStreamDecoder(createFixedRuntime());
    const assembler = createResponseAssembler();
    for (const block of wire.split('\n\n')) {
      if (block === '') continue;
      for (const event of decoder.push({ data: block.slice('data: '.length) })) assembler.push(event);
    }
    for (const event of decoder.end()) assembler.push(event);
    const result = assembler.result();
    assert.deepEqual(result.content, [
      { type: 'reasoning', text: 'hm' },
      { type: 'text', text: 'Hi' },
      { type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{"a":1}' },
    ]);
    assert.deepEqual(result.finishReason, { unified: 'tool-calls', raw: 'tool_calls' });
    assert.deepEqual(result.usage, { inputTokens: 5, outputTokens: 7, reasoningTokens: 2 });
  });
});

test('usage tap parses only usage chunks and keeps the last', () => {
  const tap = createOpenAiChatUsageTap();
  assert.equal(tap.usage(), undefined);
  tap.observe({ data: chunk('{"index":0,"delta":{"content":"a"},"finish_reason":null}', ',"usage":null') });
  tap.observe({ data: '{"id":"x","usage":{broken' });
  assert.equal(tap.usage(), undefined);
  tap.observe({ data: chunk('', ',"usage": {"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}') });
  tap.observe({ data: '[DONE]' });
  assert.deepEqual(tap.usage(), { inputTokens: 3, outputTokens: 4 });
});

test('custom tools: a call to one goes out as a chat custom tool call, its input whole at the end; functions unchanged', async () => {
  const { encodeOpenAiChatResponse } = await import('./encode-openai-chat-response.ts');
  const patch = '*** Begin Patch\n*** End Patch';
  const encoder = createOpenAiChatStreamEncoder(createFixedRuntime(), { customTools: ['apply_patch'] });
  const wire = [
    { type: 'response-start', id: 'chatcmpl-1', model: 'gpt-4o', createdAt: 1_700_000_000_000 },
    { type: 'tool-call-start', id: 'a', callId: 'call_patch', name: 'apply_patch' },
    { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"input":"*** Begin' },
    { type: 'tool-call-delta', id: 'a', argumentsDelta: ' Patch\\n*** End Patch"}' },
    { type: 'tool-call-end', id: 'a' },
    { type: 'tool-call-start', id: 'b', callId: 'call_ls', name: 'shell' },
    { type: 'tool-call-delta', id: 'b', argumentsDelta: '{"command":["ls"]}' },
    { type: 'tool-call-end', id: 'b' },
    { type: 'response-end', finishReason: { unified: 'tool-calls' } },
  ]
    .map((event) => encoder.push(event as StreamEvent))
    .join('');
  const toolDeltas = wire
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .flatMap((line) => (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { tool_calls?: unknown[] } }> }).choices[0]?.delta.tool_calls ?? []);
  assert.deepEqual(toolDeltas, [
    { index: 0, id: 'call_patch', type: 'custom', custom: { name: 'apply_patch', input: '' } },
    { index: 0, custom: { input: patch } },
    { index: 1, id: 'call_ls', type: 'function', function: { name: 'shell', arguments: '' } },
    { index: 1, function: { arguments: '{"command":["ls"]}' } },
  ]);

  const reply = {
    id: 'chatcmpl-1',
    model: 'gpt-4o',
    createdAt: 1_700_000_000_000,
    content: [
      { type: 'tool-call' as const, callId: 'call_patch', name: 'apply_patch', arguments: JSON.stringify({ input: patch }) },
      { type: 'tool-call' as const, callId: 'call_ls', name: 'shell', arguments: '{"command":["ls"]}' },
    ],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
    usage: { inputTokens: 1, outputTokens: 1 },
  };
  const encoded = encodeOpenAiChatResponse(reply, createFixedRuntime(), { customTools: ['apply_patch'] }) as {
    choices: Array<{ message: { tool_calls: unknown[] } }>;
  };
  assert.deepEqual(encoded.choices[0]!.message.tool_calls, [
    { id: 'call_patch', type: 'custom', custom: { name: 'apply_patch', input: patch } },
    { id: 'call_ls', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } },
  ]);
  const plain = encodeOpenAiChatResponse(reply, createFixedRuntime()) as { choices: Array<{ message: { tool_calls: Array<{ type: string }> } }> };
  assert.equal(plain.choices[0]!.message.tool_calls[0]!.type, 'function', 'without the option every call is a function call');
});
