import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredResponse } from '../../../src/domain/stored-response.ts';
import { assertConflict } from './assert-conflict.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { START_TIME } from './conformance-context.ts';

const HOUR = 3_600_000;

function storedResponse(overrides: Partial<StoredResponse> = {}): StoredResponse {
  return {
    id: 'resp_1',
    keyId: 'key_a',
    previousResponseId: null,
    holder: 'gateway',
    channelId: null,
    upstreamKeyHash: null,
    model: 'claude-sonnet',
    input: [{ type: 'message', role: 'user', content: 'Grüße, 你好' }],
    response: { id: 'resp_1', object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text: 'hi' }] }] },
    sizeBytes: 321,
    contextTokens: null,
    createdAt: START_TIME,
    expiresAt: START_TIME + HOUR,
    ...overrides,
  };
}

export function describeStoredResponses(context: ConformanceContext): void {
  describe('stored responses', () => {
    test('a stored turn reads back whole, for its own key only', async () => {
      const record = storedResponse();
      await context.store.responses.insert(record);
      assert.deepEqual(await context.store.responses.find('resp_1', 'key_a', START_TIME), record);
      assert.equal(await context.store.responses.find('resp_1', 'key_b', START_TIME), undefined);
      assert.equal(await context.store.responses.find('resp_2', 'key_a', START_TIME), undefined);
    });

    test('an upstream-held turn keeps its channel and key fingerprint and no content', async () => {
      const record = storedResponse({
        id: 'resp_up',
        holder: 'upstream',
        channelId: 'ch_1',
        upstreamKeyHash: 'f'.repeat(64),
        previousResponseId: 'resp_1',
        input: null,
        response: null,
        sizeBytes: 0,
        // What a continuation reserves for the context the upstream keeps (issue 23, item 3).
        contextTokens: 150_000,
      });
      await context.store.responses.insert(record);
      assert.deepEqual(await context.store.responses.find('resp_up', 'key_a', START_TIME), record);
    });

    test('the same id twice is a conflict on id', async () => {
      await context.store.responses.insert(storedResponse());
      await assertConflict(context.store.responses.insert(storedResponse({ keyId: 'key_b' })), 'id');
    });

    test('an expired turn is absent and pruned; a live one stays', async () => {
      await context.store.responses.insert(storedResponse({ id: 'resp_old', expiresAt: START_TIME + HOUR }));
      await context.store.responses.insert(storedResponse({ id: 'resp_new', expiresAt: START_TIME + 3 * HOUR }));
      const later = START_TIME + 2 * HOUR;
      assert.equal(await context.store.responses.find('resp_old', 'key_a', later), undefined);
      assert.equal(await context.store.responses.prune(later), 1);
      assert.equal(await context.store.responses.prune(later), 0);
      assert.equal((await context.store.responses.find('resp_new', 'key_a', later))?.id, 'resp_new');
    });

    test('recent lists one key’s unexpired turns, newest first, up to the limit', async () => {
      await context.store.responses.insert(storedResponse({ id: 'resp_a', createdAt: START_TIME }));
      await context.store.responses.insert(storedResponse({ id: 'resp_b', createdAt: START_TIME + 1 }));
      await context.store.responses.insert(storedResponse({ id: 'resp_c', createdAt: START_TIME + 2 }));
      await context.store.responses.insert(storedResponse({ id: 'resp_other', keyId: 'key_b', createdAt: START_TIME + 3 }));
      await context.store.responses.insert(storedResponse({ id: 'resp_gone', createdAt: START_TIME + 4, expiresAt: START_TIME + 10 }));
      const ids = async (limit: number) => (await context.store.responses.recent('key_a', START_TIME + 10, limit)).map((turn) => turn.id);
      assert.deepEqual(await ids(10), ['resp_c', 'resp_b', 'resp_a']);
      assert.deepEqual(await ids(2), ['resp_c', 'resp_b']);
      assert.deepEqual((await context.store.responses.recent('key_a', START_TIME + 10, 1))[0], storedResponse({ id: 'resp_c', createdAt: START_TIME + 2 }));
    });

    test('delete removes only the named key’s turn', async () => {
      await context.store.responses.insert(storedResponse());
      assert.equal(await context.store.responses.delete('resp_1', 'key_b'), false);
      assert.ok(await context.store.responses.find('resp_1', 'key_a', START_TIME));
      assert.equal(await context.store.responses.delete('resp_1', 'key_a'), true);
      assert.equal(await context.store.responses.find('resp_1', 'key_a', START_TIME), undefined);
      assert.equal(await context.store.responses.delete('resp_1', 'key_a'), false);
    });
  });
}
