import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredResponse } from '../domain/stored-response.ts';
import type { StoredResponseRepository } from '../store/store.ts';
import { planStatefulRequest } from './plan-stateful-request.ts';
import type { StatefulResponses } from './stateful-responses.ts';

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

function responsesOf(turns: StoredResponse[]): StatefulResponses {
  const repository: StoredResponseRepository = {
    insert: async () => undefined,
    find: async (id, keyId) => turns.find((candidate) => candidate.id === id && candidate.keyId === keyId),
    recent: async (keyId, _now, limit) => turns.filter((candidate) => candidate.keyId === keyId).slice(0, limit),
    delete: async () => false,
    prune: async () => 0,
  };
  return { repository, retentionMs: 10, maxTurnBytes: 1_000_000, maxChainTurns: 10 };
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
