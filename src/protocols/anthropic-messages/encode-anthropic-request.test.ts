import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest } from '../../core/chat-request.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import type { AnthropicMessageParam } from './anthropic-wire-types.ts';
import { encodeAnthropicRequest } from './encode-anthropic-request.ts';

const request = (extra: Partial<ChatRequest>): ChatRequest => ({
  model: 'claude-sonnet-4-6',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
  stream: false,
  ...extra,
});

const messagesOf = (body: Record<string, unknown>) => body.messages as AnthropicMessageParam[];

const encode = (extra: Partial<ChatRequest>) => encodeAnthropicRequest(request(extra), createFixedRuntime());

describe('encodeAnthropicRequest', () => {
  test('a text request: max_tokens defaults to 8192, fields in documented order', () => {
    const { value, warnings } = encode({ stream: true, stopSequences: ['END'], user: 'u1', temperature: 0.5, topP: 0.9, topK: 5 });
    assert.deepEqual(value, {
      model: 'claude-sonnet-4-6',
      stream: true,
      body: {
        model: 'claude-sonnet-4-6',
        max_tokens: 8192,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        temperature: 0.5,
        top_p: 0.9,
        top_k: 5,
        stop_sequences: ['END'],
        metadata: { user_id: 'u1' },
        stream: true,
      },
    });
    assert.deepEqual(Object.keys(value.body), ['model', 'max_tokens', 'messages', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'metadata', 'stream']);
    assert.deepEqual(warnings, []);
    assert.equal(encode({ maxOutputTokens: 300 }).value.body.max_tokens, 300);
  });

  test('system: one plain block becomes a string, cache_control keeps blocks', () => {
    assert.equal(encode({ system: [{ type: 'text', text: 'Be brief.' }] }).value.body.system, 'Be brief.');
    assert.deepEqual(
      encode({
        system: [
          { type: 'text', text: 'A', providerMetadata: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
          { type: 'text', text: '' },
          { type: 'text', text: 'B' },
        ],
      }).value.body.system,
      [
        { type: 'text', text: 'A', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'B' },
      ],
    );
    assert.equal('system' in encode({ system: [] }).value.body, false);
  });

  test('same-role neighbours merge, the first turn is user, empty text is skipped and empty turns get "..."', () => {
    const { value } = encode({
      messages: [
        { role: 'assistant', content: [{ type: 'text', text: 'I greet first.' }] },
        { role: 'user', content: [{ type: 'text', text: 'one' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'two' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: '   ' }] },
        { role: 'user', content: [{ type: 'text', text: 'three' }] },
      ],
    });
    assert.deepEqual(value.body.messages, [
      { role: 'user', content: [{ type: 'text', text: '...' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'I greet first.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: '...' }] },
      { role: 'user', content: [{ type: 'text', text: 'three' }] },
    ]);
  });

  test('images: base64 and url; unsupported media types dropped with a warning', () => {
    const { value, warnings } = encode({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/jpg', data: 'AAAA' } },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' }, detail: 'high' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/tiff', data: 'BBBB' } },
            { type: 'text', text: 'Describe.' },
          ],
        },
      ],
    });
    assert.deepEqual(value.body.messages, [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          { type: 'text', text: 'Describe.' },
        ],
      },
    ]);
    assert.deepEqual(
      warnings.map((w) => w.feature),
      ['image-media-type'],
    );
  });

  test('parallel tool calls and their results: results lead the merged user turn, ids sanitised consistently', () => {
    const { value } = encode({
      tools: [{ name: 'get_weather', parameters: { properties: { city: { type: 'string' } } } }],
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', callId: 'call.1:a', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'tool-call', callId: '', name: 'get_weather', arguments: '' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', callId: 'call.1:a', name: 'get_weather', content: [{ type: 'text', text: '18C' }] },
            { type: 'tool-result', callId: '', content: [{ type: 'text', text: 'error' }], isError: true },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
      ],
    });
    assert.deepEqual(value.body.tools, [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }]);
    assert.deepEqual(value.body.tool_choice, { type: 'any', disable_parallel_tool_use: true });
    assert.deepEqual(value.body.messages, [
      { role: 'user', content: [{ type: 'text', text: 'Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1_a', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_0001', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1_a', content: [{ type: 'text', text: '18C' }] },
          { type: 'tool_result', tool_use_id: 'toolu_0001', content: [{ type: 'text', text: 'error' }], is_error: true },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
  });

  test('a user message before tool results is reordered so results come first', () => {
    const { value } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', content: [{ type: 'tool-call', callId: 'c1', name: 'f', arguments: '{}' }] },
        { role: 'user', content: [{ type: 'text', text: 'also this' }] },
        { role: 'tool', content: [{ type: 'tool-result', callId: 'c1', content: [] }] },
      ],
    });
    assert.deepEqual(messagesOf(value.body).at(-1), {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'c1' },
        { type: 'text', text: 'also this' },
      ],
    });
  });

  test('signed thinking is kept byte for byte; unsigned reasoning is dropped with a warning', () => {
    const signature = 'EqQBCkYIBxgCKkD+/=\u00e9==';
    const { value, warnings } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'from openai', providerMetadata: { openai: { itemId: 'rs_1' } } },
            { type: 'reasoning', text: 'mine', signature },
            { type: 'reasoning', text: '', redactedData: 'opaque' },
            { type: 'text', text: 'a' },
          ],
        },
      ],
    });
    assert.deepEqual(messagesOf(value.body)[1], {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'mine', signature },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'a' },
      ],
    });
    assert.deepEqual(
      warnings.map((w) => [w.type, w.feature]),
      [['unsupported', 'reasoning_history']],
    );
  });

  test('temperature above 1 is clamped; n, seed and penalties are warned about', () => {
    const { value, warnings } = encode({ temperature: 1.7, candidateCount: 2, seed: 1, presencePenalty: 0.1, frequencyPenalty: 0.2 });
    assert.equal(value.body.temperature, 1);
    assert.deepEqual(warnings, [
      { type: 'unsupported', feature: 'candidateCount', detail: 'Anthropic returns one completion per request.' },
      { type: 'unsupported', feature: 'seed' },
      { type: 'unsupported', feature: 'presencePenalty' },
      { type: 'unsupported', feature: 'frequencyPenalty' },
      { type: 'clamped', feature: 'temperature', from: 1.7, to: 1 },
    ]);
  });

  test('reasoning: budgets, effort table, max_tokens raised to fit, disabled omitted', () => {
    const thinkingOf = (extra: Partial<ChatRequest>) => {
      const body = encode(extra).value.body;
      return [body.thinking, body.max_tokens];
    };
    assert.deepEqual(thinkingOf({ reasoning: { enabled: true, budgetTokens: 3000 }, maxOutputTokens: 10000 }), [
      { type: 'enabled', budget_tokens: 3000 },
      10000,
    ]);
    assert.deepEqual(thinkingOf({ reasoning: { enabled: true, effort: 'low' } }), [{ type: 'enabled', budget_tokens: 1024 }, 8192]);
    assert.deepEqual(thinkingOf({ reasoning: { enabled: true, effort: 'medium' } }), [{ type: 'enabled', budget_tokens: 2048 }, 8192]);
    assert.deepEqual(thinkingOf({ reasoning: { enabled: true, effort: 'high' } }), [{ type: 'enabled', budget_tokens: 4096 }, 8192]);
    assert.deepEqual(thinkingOf({ reasoning: { enabled: true, effort: 'minimal' } }), [{ type: 'enabled', budget_tokens: 1024 }, 8192]);
    assert.deepEqual(thinkingOf({ reasoning: { enabled: false } }), [undefined, 8192]);
    assert.deepEqual(thinkingOf({ reasoning: { enabled: true, effort: 'none' } }), [undefined, 8192]);

    const small = encode({ reasoning: { enabled: true, budgetTokens: 500 }, maxOutputTokens: 1000 });
    assert.deepEqual(small.value.body.thinking, { type: 'enabled', budget_tokens: 1024 });
    assert.equal(small.value.body.max_tokens, 2024);
    assert.ok((small.value.body.thinking as { budget_tokens: number }).budget_tokens < (small.value.body.max_tokens as number));
    assert.deepEqual(
      small.warnings.map((w) => w.type),
      ['clamped', 'clamped'],
    );
  });

  test('with thinking on, temperature other than 1 and top_k are not sent', () => {
    const { value, warnings } = encode({ reasoning: { enabled: true, effort: 'high' }, temperature: 0.2, topK: 3, topP: 0.99 });
    assert.equal('temperature' in value.body, false);
    assert.equal('top_k' in value.body, false);
    assert.equal(value.body.top_p, 0.99);
    assert.deepEqual(
      warnings.map((w) => w.feature),
      ['temperature', 'topK'],
    );
  });

  test('response formats: a schema goes to output_config, json without one is warned about', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    assert.deepEqual(encode({ responseFormat: { type: 'json', schema } }).value.body.output_config, {
      format: { type: 'json_schema', schema },
    });
    const plain = encode({ responseFormat: { type: 'json' } });
    assert.equal('output_config' in plain.value.body, false);
    assert.deepEqual(
      plain.warnings.map((w) => w.feature),
      ['responseFormat'],
    );
  });

  test('tool choice is omitted without tools; parallel off alone becomes auto with the flag', () => {
    assert.equal('tool_choice' in encode({ toolChoice: { type: 'auto' } }).value.body, false);
    const tools = [{ name: 'f', parameters: { type: 'object' } }];
    assert.deepEqual(encode({ tools, parallelToolCalls: false }).value.body.tool_choice, { type: 'auto', disable_parallel_tool_use: true });
    assert.deepEqual(encode({ tools, toolChoice: { type: 'none' }, parallelToolCalls: false }).value.body.tool_choice, { type: 'none' });
    assert.deepEqual(encode({ tools, toolChoice: { type: 'tool', name: 'f' } }).value.body.tool_choice, { type: 'tool', name: 'f' });
  });

  test('files: PDF and plain text become documents, other types are warned about', () => {
    const { value, warnings } = encode({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', filename: 'a.pdf', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
            { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: Buffer.from('hello').toString('base64') } },
            { type: 'file', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklG' } },
          ],
        },
      ],
    });
    assert.deepEqual(messagesOf(value.body)[0], {
      role: 'user',
      content: [
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'a.pdf' },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello' } },
      ],
    });
    assert.deepEqual(
      warnings.map((w) => w.feature),
      ['file-media-type'],
    );
  });
});
