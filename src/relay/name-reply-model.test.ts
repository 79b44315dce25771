import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatResponse } from '../core/chat-response.ts';
import { nameReplyModel, nameStreamModel } from './name-reply-model.ts';

const reply = (model: string): ChatResponse => ({
  id: 'msg_1',
  model,
  createdAt: 0,
  content: [{ type: 'text', text: 'Hi' }],
  finishReason: { unified: 'stop' },
  usage: { inputTokens: 1, outputTokens: 1 },
});

test('a reply that names no model (Bedrock Converse) gets the model the gateway called', () => {
  assert.equal(nameReplyModel(reply(''), 'us.anthropic.claude-sonnet-4-5-20250929-v1:0').model, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0');
});

test('a model the upstream named is kept, even when it differs from the one called', () => {
  assert.equal(nameReplyModel(reply('gemini-2.5-flash-002'), 'gemini-2.5-flash').model, 'gemini-2.5-flash-002');
});

test('streams: response-start is named, other events pass untouched', () => {
  const name = nameStreamModel('amazon.nova-pro-v1:0');
  assert.deepEqual(name({ type: 'response-start', id: 'm', model: '', createdAt: 0 }), [
    { type: 'response-start', id: 'm', model: 'amazon.nova-pro-v1:0', createdAt: 0 },
  ]);
  assert.deepEqual(name({ type: 'response-start', id: 'm', model: 'named', createdAt: 0 }), [
    { type: 'response-start', id: 'm', model: 'named', createdAt: 0 },
  ]);
  const delta = { type: 'text-delta', id: '0', delta: 'x' } as const;
  assert.deepEqual(name(delta), [delta]);
});
