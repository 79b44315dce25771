import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;

/**
 * Issue 23, item 4: a Responses turn the gateway keeps stores only what the gateway reads of
 * its input (a field the decoder ignores never reached the upstream or the hold, and is not
 * stored or replayed), and a conversation past RESPONSES_MAX_CHAIN_BYTES is refused with a 429
 * in the caller's shape instead of being read into memory and replayed.
 */
describe('stored Responses turns are canonical and bounded', () => {
  let harness: Harness;
  let key: string;
  let keyId: string;

  before(async () => {
    harness = await startHarness({ responsesMaxChainBytes: 20_000 });
    await harness.addChannel({ provider: 'anthropic', models: ['kept'], modelMap: { kept: 'claude-sonnet-4-6' } });
    ({ key, id: keyId } = await harness.addKey());
  });
  after(() => harness.close());

  const create = async (body: Json): Promise<{ status: number; json: Json }> => {
    const response = await fetch(`${harness.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'kept', ...body }),
    });
    return { status: response.status, json: (await response.json()) as Json };
  };

  test('a 400 KB field (twice) the gateway ignores is neither stored nor replayed', async () => {
    const junk = 'J'.repeat(400_000);
    harness.simulator.enqueue({ text: 'first answer' });
    const first = await create({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'hello', junk }], junk }] });
    assert.equal(first.status, 200, JSON.stringify(first.json).slice(0, 300));
    const stored = await harness.gateway.store.responses.find(first.json.id, keyId, Date.now());
    assert.ok(stored, 'the turn was kept');
    assert.ok(stored.sizeBytes < 5_000, `only the canonical input is kept (${stored.sizeBytes} bytes)`);
    assert.ok(!JSON.stringify(stored.input).includes('JJJJ'));
    assert.deepEqual(stored.input, [{ role: 'user', content: [{ type: 'input_text', text: 'hello' }] }]);

    harness.simulator.enqueue({ text: 'second answer' });
    const second = await create({ input: 'and then?', previous_response_id: first.json.id });
    assert.equal(second.status, 200);
    const replayed = harness.simulator.requests.at(-1)?.rawBody ?? '';
    assert.ok(replayed.includes('hello') && !replayed.includes('JJJJ'), 'the replay carries the text, not the junk');
  });

  test('a conversation past RESPONSES_MAX_CHAIN_BYTES is a 429 in the OpenAI shape, not replayed', async () => {
    let previous: string | undefined;
    let refused: { status: number; json: Json } | undefined;
    const before = harness.simulator.requests.length;
    for (let turn = 0; turn < 20 && refused === undefined; turn += 1) {
      harness.simulator.enqueue({ text: 'ok' });
      const reply = await create({ input: 'x'.repeat(4_000), ...(previous === undefined ? {} : { previous_response_id: previous }) });
      if (reply.status !== 200) refused = reply;
      else previous = reply.json.id;
    }
    assert.ok(refused, 'the chain was refused before 20 turns of 4 KB');
    assert.equal(refused.status, 429);
    assert.equal(refused.json.error.code, 'stored_responses_limit');
    assert.equal(refused.json.error.param, 'previous_response_id');
    const served = harness.simulator.requests.length - before;
    assert.ok(served <= 6, `no turn past the bound reached the upstream (${served} did)`);
  });
});
