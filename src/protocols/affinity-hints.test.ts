import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getCodec } from './codec-registry.ts';

const hint = (protocol: Parameters<typeof getCodec>[0], body: unknown) => getCodec(protocol).affinityHint?.({ body });

describe('affinity hints: what each protocol says about the conversation', () => {
  test('OpenAI chat: prompt_cache_key first, then user; nothing without either', () => {
    assert.deepEqual(hint('openai-chat', { model: 'm', messages: [], prompt_cache_key: 'pc', user: 'u' }), {
      conversationKeys: ['prompt_cache_key:pc', 'user:u'],
    });
    assert.equal(hint('openai-chat', { model: 'm', messages: [] }), undefined);
  });

  test('Responses: the previous_response_id chain, with or without a previous id', () => {
    assert.deepEqual(hint('openai-responses', { model: 'm', input: 'hi', previous_response_id: 'resp_1' }), {
      conversationKeys: [],
      responseChain: { previous: 'resp_1' },
    });
    assert.deepEqual(hint('openai-responses', { model: 'm', input: 'hi', prompt_cache_key: 'k' }), {
      conversationKeys: ['prompt_cache_key:k'],
      responseChain: { previous: undefined },
    });
  });

  test('Gemini: an explicit context cache', () => {
    assert.deepEqual(hint('gemini-generate-content', { contents: [], cachedContent: 'cachedContents/abc' }), {
      conversationKeys: ['cachedContent:cachedContents/abc'],
    });
    assert.equal(hint('gemini-generate-content', { contents: [] }), undefined);
  });

  test('Anthropic: metadata.user_id, and the prefix blocks only when a breakpoint is set', () => {
    assert.deepEqual(hint('anthropic-messages', { model: 'm', messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'session-1' } }), {
      conversationKeys: ['user_id:session-1'],
    });
    assert.equal(hint('anthropic-messages', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }), undefined);
  });

  test('Anthropic: blocks in cache order, markers left out, a string and its one text block alike', () => {
    const marked = hint('anthropic-messages', {
      model: 'm',
      tools: [{ name: 't', input_schema: { type: 'object' } }],
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'question 1' },
        { role: 'assistant', content: [{ type: 'text', text: 'answer 1' }] },
        { role: 'user', content: [{ type: 'text', text: 'question 2', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      ],
    });
    assert.deepEqual(marked?.cachePrefix, {
      blocks: [
        'tool\u0000{"name":"t","input_schema":{"type":"object"}}',
        'system\u0000{"type":"text","text":"sys"}',
        'user\u0000{"type":"text","text":"question 1"}',
        'assistant\u0000{"type":"text","text":"answer 1"}',
        'user\u0000{"type":"text","text":"question 2"}',
      ],
      breakpoints: [1, 4],
    });
    // The next turn: the old breakpoint moved on, the content up to it reads the same.
    const next = hint('anthropic-messages', {
      model: 'm',
      tools: [{ name: 't', input_schema: { type: 'object' } }],
      system: 'sys',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'question 1' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'answer 1' }] },
        { role: 'user', content: [{ type: 'text', text: 'question 2' }] },
        { role: 'assistant', content: 'answer 2' },
        { role: 'user', content: [{ type: 'text', text: 'question 3', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    assert.deepEqual(next?.cachePrefix?.blocks.slice(0, 5), marked?.cachePrefix?.blocks);
    assert.deepEqual(next?.cachePrefix?.breakpoints, [6]);
  });
});
