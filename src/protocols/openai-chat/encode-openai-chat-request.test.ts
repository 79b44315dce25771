import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ChatRequest, Message, UserContentPart } from '../../core/chat-request.ts';
import { decodeOpenAiChatRequest } from './decode-openai-chat-request.ts';
import { encodeOpenAiChatRequest } from './encode-openai-chat-request.ts';

const base: ChatRequest = { model: 'gpt-4o', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], stream: false };

describe('encodeOpenAiChatRequest', () => {
  test('system becomes one leading message and streaming always asks for usage', () => {
    const { value, warnings } = encodeOpenAiChatRequest({
      ...base,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use French.' },
      ],
      stream: true,
      maxOutputTokens: 50,
      stopSequences: ['END'],
      temperature: 0,
    });
    assert.deepEqual(value, {
      body: {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be brief.\n\nUse French.' },
          { role: 'user', content: 'Hi' },
        ],
        max_completion_tokens: 50,
        temperature: 0,
        stop: ['END'],
        stream: true,
        stream_options: { include_usage: true },
      },
      model: 'gpt-4o',
      stream: true,
    });
    assert.deepEqual(warnings, []);
  });

  test('images: base64 becomes a data URL, links stay links', () => {
    const { value } = encodeOpenAiChatRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
            { type: 'image', source: { kind: 'url', url: 'https://x/y.jpg' }, detail: 'low' },
          ],
        },
      ],
    });
    assert.deepEqual((value.body.messages as unknown[])[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'see' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'image_url', image_url: { url: 'https://x/y.jpg', detail: 'low' } },
      ],
    });
  });

  test('tool results become one tool message each; images move to a following user message; reasoning and top_k warn', () => {
    const { value, warnings } = encodeOpenAiChatRequest({
      ...base,
      topK: 40,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking', signature: 'sig' },
            { type: 'tool-call', callId: 'call_1', name: 'shot', arguments: '{}' },
            { type: 'tool-call', callId: 'call_2', name: 'f', arguments: '{"a":1}' },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              callId: 'call_1',
              name: 'shot',
              content: [
                { type: 'text', text: 'here' },
                { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: 'BBBB' } },
              ],
            },
            { type: 'tool-result', callId: 'call_2', name: 'f', content: [{ type: 'text', text: 'ok' }] },
          ],
        },
      ],
    });
    assert.deepEqual((value.body.messages as unknown[]).slice(1), [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'shot', arguments: '{}' } },
          { id: 'call_2', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'here' },
      { role: 'tool', tool_call_id: 'call_2', content: 'ok' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,BBBB' } }] },
    ]);
    assert.equal(value.body.top_k, undefined);
    assert.deepEqual(warnings.map((warning) => warning.feature).sort(), ['reasoning_history', 'tool_result.image', 'top_k']);
  });

  test('tools, named choice, json schema and a thinking budget mapped to an effort', () => {
    const { value, warnings } = encodeOpenAiChatRequest({
      ...base,
      tools: [{ name: 'f', description: 'd', parameters: { type: 'object' }, strict: true }],
      toolChoice: { type: 'tool', name: 'f' },
      parallelToolCalls: false,
      responseFormat: { type: 'json', schema: { type: 'object' }, name: 'out' },
      reasoning: { enabled: true, budgetTokens: 4096 },
    });
    assert.deepEqual(value.body.tools, [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' }, strict: true } }]);
    assert.deepEqual(value.body.tool_choice, { type: 'function', function: { name: 'f' } });
    assert.equal(value.body.parallel_tool_calls, false);
    assert.deepEqual(value.body.response_format, { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' } } });
    assert.equal(value.body.reasoning_effort, 'medium');
    assert.deepEqual(warnings, [{ type: 'clamped', feature: 'reasoning.budget_tokens', from: 4096, to: 'medium' }]);
  });
});

// ---- property: what encodeRequest writes, decodeRequest reads back with the same meaning ----

const text = fc.string({ minLength: 1, maxLength: 12 });
const textPart = text.map((value) => ({ type: 'text' as const, text: value }));
const id = fc.stringMatching(/^call_[a-z0-9]{1,6}$/);
const toolName = fc.stringMatching(/^[a-z_]{1,10}$/);
const userPart: fc.Arbitrary<UserContentPart> = fc.oneof(
  textPart,
  fc
    .base64String({ minLength: 4, maxLength: 12 })
    .map((data) => ({ type: 'image' as const, source: { kind: 'base64' as const, mediaType: 'image/png', data } })),
  fc.webUrl().map((url) => ({ type: 'image' as const, source: { kind: 'url' as const, url } })),
);
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.array(userPart, { minLength: 1, maxLength: 3 }).map((content) => ({ role: 'user' as const, content })),
  fc
    .tuple(fc.array(textPart, { maxLength: 2 }), fc.array(fc.record({ callId: id, name: toolName, arguments: fc.json() }), { maxLength: 2 }))
    .map(([texts, calls]) => ({
      role: 'assistant' as const,
      content: [...texts, ...calls.map((call) => ({ type: 'tool-call' as const, ...call }))],
    })),
  fc
    .array(fc.record({ callId: id, content: fc.array(textPart, { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 2 })
    .map((results) => ({ role: 'tool' as const, content: results.map((result) => ({ type: 'tool-result' as const, ...result })) })),
);

const request: fc.Arbitrary<ChatRequest> = fc
  .record(
    {
      model: toolName,
      system: fc.array(textPart, { maxLength: 2 }),
      messages: fc.array(message, { minLength: 1, maxLength: 5 }),
      tools: fc.array(fc.record({ name: toolName, description: text, parameters: fc.constant({ type: 'object', properties: {} }) }), { maxLength: 2 }),
      toolChoice: fc.oneof(
        fc.constant({ type: 'auto' as const }),
        fc.constant({ type: 'none' as const }),
        fc.constant({ type: 'required' as const }),
        toolName.map((name) => ({ type: 'tool' as const, name })),
      ),
      maxOutputTokens: fc.nat(),
      temperature: fc.double({ min: 0, max: 2, noNaN: true }),
      topP: fc.double({ min: 0, max: 1, noNaN: true }),
      stopSequences: fc.array(text, { minLength: 1, maxLength: 4 }),
      seed: fc.integer(),
      candidateCount: fc.integer({ min: 1, max: 4 }),
      responseFormat: fc.oneof(
        fc.constant({ type: 'text' as const }),
        fc.constant({ type: 'json' as const }),
        fc.record({ type: fc.constant('json' as const), schema: fc.constant({ type: 'object' }), name: toolName, strict: fc.boolean() }),
      ),
      reasoning: fc.constantFrom('low', 'medium', 'high').map((effort) => ({ enabled: true, effort })),
      user: text,
      stream: fc.boolean(),
    },
    { requiredKeys: ['model', 'system', 'messages', 'tools', 'stream'] },
  )
  .map((value) => value as ChatRequest);

/** The meaning a chat round trip must keep: system text, turns (tool turns merged), everything else as is. */
function meaning(value: ChatRequest): unknown {
  const messages: Message[] = [];
  for (const item of value.messages) {
    const last = messages.at(-1);
    if (item.role === 'tool' && last?.role === 'tool') last.content.push(...item.content.map((part) => ({ ...part })));
    else messages.push(item.role === 'tool' ? { role: 'tool', content: item.content.map((part) => ({ ...part })) } : item);
  }
  for (const item of messages) if (item.role === 'tool') for (const part of item.content) delete part.name;
  return { ...value, system: value.system.map((part) => part.text).join('\n\n'), messages };
}

test('property: random canonical requests survive encodeRequest → decodeRequest unchanged in meaning', () => {
  fc.assert(
    fc.property(request, (original) => {
      const { value } = encodeOpenAiChatRequest(original);
      const decoded = decodeOpenAiChatRequest({ body: JSON.parse(JSON.stringify(value.body)) }).value;
      // fast-check builds null-prototype records; compare plain JSON values.
      assert.deepEqual(meaning(decoded), meaning(JSON.parse(JSON.stringify(original))));
    }),
    { numRuns: 300 },
  );
});
