import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../core/gateway-error.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import type { StoredResponseRepository } from '../store/store.ts';
import { planStatefulRequest } from './plan-stateful-request.ts';
import type { StatefulResponses } from './stateful-responses.ts';
import { StoredBytesQuota } from './stored-bytes-quota.ts';

function turn(id: string, keyId: string, output: unknown[], holder: StoredResponse['holder'] = 'gateway'): StoredResponse {
  return {
    id,
    keyId,
    previousResponseId: null,
    holder,
    channelId: null,
    upstreamKeyHash: null,
    model: 'm',
    input: [],
    response: { id, object: 'response', output },
    sizeBytes: 0,
    createdAt: 0,
    expiresAt: 10,
  };
}

function responsesOf(turns: StoredResponse[], bounds: { maxChainBytes?: number; maxKeyBytes?: number } = {}, reads: string[] = []): StatefulResponses {
  const repository: StoredResponseRepository = {
    insert: async () => undefined,
    find: async (id, keyId) => {
      reads.push(id);
      return turns.find((candidate) => candidate.id === id && candidate.keyId === keyId);
    },
    storedBytes: async (keyId) => turns.filter((candidate) => candidate.keyId === keyId).reduce((sum, candidate) => sum + candidate.sizeBytes, 0),
    recent: async (keyId, _now, limit) => turns.filter((candidate) => candidate.keyId === keyId).slice(0, limit),
    delete: async () => false,
    prune: async () => 0,
  };
  return {
    repository,
    retentionMs: 10,
    maxTurnBytes: 1_000_000,
    maxChainTurns: 10,
    maxChainBytes: bounds.maxChainBytes ?? 1_000_000,
    keyBytes: new StoredBytesQuota(repository, bounds.maxKeyBytes ?? 10_000_000, () => 0),
  };
}

const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'U1lSAenvelope' };
const message = { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi.' }] };

test("item_reference ids naming this key's gateway-held output items are replaced by the items, as a replay gives them", async () => {
  const responses = responsesOf([turn('resp_1', 'key_a', [reasoning, message]), turn('resp_up', 'key_a', [{ id: 'rs_up', type: 'reasoning' }], 'upstream')]);
  const body = {
    model: 'm',
    input: [
      { role: 'user', content: 'hello' },
      { type: 'item_reference', id: 'rs_1' },
      { type: 'item_reference', id: 'msg_1' },
      { type: 'item_reference', id: 'rs_up' },
      { type: 'item_reference', id: 'rs_unknown' },
    ],
  };
  const plan = await planStatefulRequest(responses, 'key_a', body, 0);
  assert.equal(plan.changed, true);
  const { id: _id, ...messageWithoutId } = message;
  const expected = [body.input[0], reasoning, messageWithoutId, { type: 'item_reference', id: 'rs_up' }, { type: 'item_reference', id: 'rs_unknown' }];
  assert.deepEqual(plan.body.input, expected, 'reasoning keeps its id and sealed state; references the gateway does not hold stay');
  assert.deepEqual(plan.turnInput, expected, 'the turn keeps the resolved items');
});

test("another key's items are never resolved, and a body without references is left alone", async () => {
  const responses = responsesOf([turn('resp_1', 'key_a', [reasoning])]);
  const foreign = await planStatefulRequest(responses, 'key_b', { model: 'm', input: [{ type: 'item_reference', id: 'rs_1' }] }, 0);
  assert.equal(foreign.changed, false);
  assert.deepEqual(foreign.body.input, [{ type: 'item_reference', id: 'rs_1' }]);
  const body = { model: 'm', input: 'plain' };
  const plain = await planStatefulRequest(responses, 'key_a', body, 0);
  assert.equal(plain.changed, false);
  assert.equal(plain.body, body);
});

/** A chain of `count` gateway-held turns of `bytes` each, newest last (resp_0 … resp_{count-1}). */
function chainOf(count: number, bytes: number): StoredResponse[] {
  return Array.from({ length: count }, (_, index) => ({
    ...turn(`resp_${index}`, 'key_a', [message]),
    previousResponseId: index === 0 ? null : `resp_${index - 1}`,
    sizeBytes: bytes,
  }));
}

test('issue 23 item 4: a chain past RESPONSES_MAX_CHAIN_BYTES is refused with a 429, before the whole chain is read', async () => {
  const reads: string[] = [];
  const responses = responsesOf(chainOf(10, 300), { maxChainBytes: 1_000 }, reads);
  const refused = await planStatefulRequest(responses, 'key_a', { model: 'm', input: 'next', previous_response_id: 'resp_9' }, 0).catch(
    (error: unknown) => error,
  );
  assert.ok(refused instanceof GatewayError, String(refused));
  assert.equal(refused.code, 'stored_responses_limit');
  assert.equal(refused.status, 429);
  assert.equal(refused.param, 'previous_response_id');
  assert.ok(reads.length <= 5, `stopped reading once past the bound (read ${reads.length} of 10 turns)`);
  // Within the bound the same chain is replayed.
  const plan = await planStatefulRequest(
    responsesOf(chainOf(10, 300), { maxChainBytes: 3_000 }),
    'key_a',
    { model: 'm', input: 'next', previous_response_id: 'resp_9' },
    0,
  );
  assert.equal((plan.body.input as unknown[]).length, 11);
});

test('issue 23 item 4: a key whose kept turns reach RESPONSES_MAX_KEY_BYTES gets a 429 for store on, and is served with store off', async () => {
  const responses = responsesOf(chainOf(3, 400), { maxKeyBytes: 1_000 });
  const refused = await planStatefulRequest(responses, 'key_a', { model: 'm', input: 'hi' }, 0).catch((error: unknown) => error);
  assert.ok(refused instanceof GatewayError, String(refused));
  assert.equal(refused.code, 'stored_responses_limit');
  assert.equal(refused.status, 429);
  const stateless = await planStatefulRequest(responses, 'key_a', { model: 'm', input: 'hi', store: false }, 0);
  assert.equal(stateless.store, false);
  // Another key is not affected.
  assert.equal((await planStatefulRequest(responses, 'key_b', { model: 'm', input: 'hi' }, 0)).store, true);
});
