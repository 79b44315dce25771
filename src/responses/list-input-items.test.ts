import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayError } from '../core/gateway-error.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import { inputItemsOf, pageInputItems, readInputItemsQuery } from './list-input-items.ts';

const turn = (id: string, input: unknown[], output: unknown[], previousResponseId: string | null = null): StoredResponse => ({
  id,
  keyId: 'key',
  previousResponseId,
  holder: 'gateway',
  channelId: null,
  upstreamKeyHash: null,
  model: 'm',
  input,
  response: { id, object: 'response', output },
  sizeBytes: 0,
  createdAt: 0,
  expiresAt: 1,
});

describe('input items of a gateway-held response', () => {
  const first = turn(
    'resp_1',
    [{ type: 'message', role: 'user', content: 'Weather in Paris?' }],
    [{ id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}', status: 'completed' }],
  );
  const second = turn('resp_2', [{ type: 'function_call_output', call_id: 'call_1', output: 'sunny' }], [{ id: 'msg_2', type: 'message' }], 'resp_1');

  test('the earlier turns input and output, then this turn input; never this turn output; ids stable', () => {
    const items = inputItemsOf([first, second]);
    assert.deepEqual(
      items.map((item) => item.type),
      ['message', 'function_call', 'function_call_output'],
    );
    assert.match(String(items[0]!.id), /^msg_[0-9a-f]{40}$/);
    assert.deepEqual(items[0]!.content, [{ type: 'input_text', text: 'Weather in Paris?' }]);
    assert.equal(items[0]!.status, 'completed');
    assert.equal(items[1]!.id, 'fc_1', 'an id the item had is kept');
    assert.match(String(items[2]!.id), /^fco_/);
    assert.deepEqual(inputItemsOf([first, second]), items, 'the same ids on every call');
    assert.equal(Object.keys(items[0]!)[0], 'id');
  });

  test('pages newest first by default, asc on request, with after and before cursors', () => {
    const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, type: 'message' }));
    const ids = (page: { data: Array<Record<string, unknown>> }) => page.data.map((item) => item.id);
    const desc = pageInputItems(items, readInputItemsQuery({ limit: '2' }));
    assert.deepEqual(ids(desc), ['e', 'd']);
    assert.equal(desc.object, 'list');
    assert.equal(desc.first_id, 'e');
    assert.equal(desc.last_id, 'd');
    assert.equal(desc.has_more, true);
    const next = pageInputItems(items, readInputItemsQuery({ limit: '2', after: 'd' }));
    assert.deepEqual(ids(next), ['c', 'b']);
    const last = pageInputItems(items, readInputItemsQuery({ limit: '2', after: 'b' }));
    assert.deepEqual(ids(last), ['a']);
    assert.equal(last.has_more, false);
    assert.deepEqual(ids(pageInputItems(items, readInputItemsQuery({ order: 'asc' }))), ['a', 'b', 'c', 'd', 'e']);
    const before = pageInputItems(items, readInputItemsQuery({ order: 'asc', before: 'd', limit: '2' }));
    assert.deepEqual(ids(before), ['b', 'c']);
    assert.equal(before.has_more, true);
    const empty = pageInputItems(items, readInputItemsQuery({ order: 'asc', after: 'e' }));
    assert.deepEqual(empty, { object: 'list', data: [], first_id: null, last_id: null, has_more: false });
  });

  test('refuses what OpenAI refuses, naming the parameter', () => {
    for (const [query, param] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: 'x' }, 'limit'],
      [{ order: 'sideways' }, 'order'],
    ] as const) {
      assert.throws(
        () => readInputItemsQuery(query),
        (error: unknown) => error instanceof GatewayError && error.code === 'invalid_request' && error.param === param,
      );
    }
    assert.throws(
      () => pageInputItems([{ id: 'a' }], readInputItemsQuery({ after: 'zz' })),
      (error: unknown) => error instanceof GatewayError && error.param === 'after',
    );
  });
});
