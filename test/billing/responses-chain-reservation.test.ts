import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Issue 23, item 3: a continuation of a chain an OpenAI Responses upstream keeps
 * (`previous_response_id` on the passthrough lane) is billed by the upstream for the whole
 * stored context, but was reserved for its new input only: ten concurrent continuations with
 * max_output_tokens 16 took a $1 balance far below zero. Input and output at $1 per million
 * tokens (one micro-USD a token).
 */
const CONTEXT = 150_000;

describe('continuations of an upstream-held Responses chain reserve for the stored context', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['chain-model'], modelMap: { 'chain-model': 'gpt-5' }, supportsResponses: true });
    await harness.admin('POST', '/prices', { model: 'chain-model', input: 1, output: 1 });
  });
  after(() => harness.close());

  const create = async (key: string, body: Record<string, unknown>) => {
    const response = await fetch(`${harness.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'chain-model', ...body }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  test('ten concurrent continuations with max_output_tokens 16 on a $1 balance never take it below zero', async () => {
    const { id, key } = await harness.addKey({ balance: 1 });
    // The first turn leaves 150,000 tokens of context upstream (input 149,990 + output 10).
    harness.simulator.enqueue({ text: 'noted', usage: { input: CONTEXT - 10, output: 10 } });
    const first = await create(key, { input: 'remember this long document' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    // Each continuation is billed the whole context again, plus its own few tokens.
    harness.simulator.setDefault({ text: 'ok', usage: { input: CONTEXT + 20, output: 16 }, delayMs: 300 });
    try {
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => create(key, { input: 'and then?', previous_response_id: first.body.id, max_output_tokens: 16 })),
      );
      const served = replies.filter((reply) => reply.status === 200).length;
      const refused = replies.filter((reply) => reply.status !== 200);
      assert.ok(
        refused.every((reply) => reply.status === 403 && reply.body.error.code === 'insufficient_balance'),
        JSON.stringify(refused[0]?.body),
      );
      const deadline = Date.now() + 5_000;
      let balance = (await harness.admin('GET', `/keys/${id}`)).balance as number;
      const expected = 1 - (CONTEXT + served * (CONTEXT + 20 + 16)) / 1_000_000;
      while (Math.abs(balance - expected) > 1e-9 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        balance = (await harness.admin('GET', `/keys/${id}`)).balance;
      }
      assert.ok(balance >= 0, `the balance never goes below zero: $${balance} after ${served} continuations`);
      assert.ok(served >= 5, `the balance covers five continuations, and they are served: ${served}`);
      console.log(`[figures upstream-held chain] ${served} of 10 continuations served, balance $${balance.toFixed(6)} (was: 10 served, $-0.650370)`);
    } finally {
      harness.simulator.setDefault({});
    }
  });
});
