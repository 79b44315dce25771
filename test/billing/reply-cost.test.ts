import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/** 10 input tokens at $100/M + 5 output tokens at $200/M = $0.002; the vip group pays 1.5×. */
const COST_USD = 0.002;

// Issue 27, cost shown to payers: the cost of each plain reply, as the request is billed.
describe('the cost of a reply, shown to whoever pays', () => {
  let harness: Harness;
  let key: string;
  before(async () => {
    harness = await startHarness();
    await harness.admin('POST', '/groups', { name: 'vip', priceMultiplier: 1.5 });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], groups: ['default', 'vip'] });
    await harness.addChannel({ provider: 'anthropic', models: ['claude-sonnet-4-5'], groups: ['default', 'vip'] });
    for (const model of ['gpt-4o-mini', 'claude-sonnet-4-5']) await harness.admin('POST', '/prices', { model, input: 100, output: 200 });
    harness.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 5 } });
    key = (await harness.addKey({ balance: 100 })).key;
  });
  after(() => harness.close());

  const chat = async (body: Record<string, unknown>, secret = key) => {
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], ...body }),
    });
    return { status: response.status, cost: response.headers.get('x-switchyard-cost'), body: (await response.json()) as any };
  };
  /** The cost the usage log recorded for the key's latest request. */
  const billed = async (secret = key): Promise<number> => {
    const me = (await (await fetch(`${harness.url}/api/me`, { headers: { authorization: `Bearer ${secret}` } })).json()) as any;
    return me.recentUsage[0].cost;
  };

  test('every plain reply carries x-switchyard-cost, equal to what was billed; the body is untouched unless asked', async () => {
    const reply = await chat({ model: 'gpt-4o-mini' });
    assert.equal(reply.status, 200);
    assert.equal(reply.cost, String(COST_USD));
    assert.equal(reply.body.usage.cost, undefined, 'not asked: the upstream reply is passed through as it was');
    assert.equal(await billed(), COST_USD);
  });

  test('usage: {"include": true} (OpenRouter) puts usage.cost in the reply, passthrough and translated, and no upstream sees the field', async () => {
    for (const model of ['gpt-4o-mini', 'claude-sonnet-4-5']) {
      const reply = await chat({ model, usage: { include: true } });
      assert.equal(reply.status, 200, model);
      assert.equal(reply.body.usage.cost, COST_USD, model);
      assert.equal(reply.body.usage.prompt_tokens, 10, model);
      assert.equal(reply.cost, String(COST_USD), model);
      assert.equal(await billed(), COST_USD, model);
      const upstream = harness.simulator.requests.at(-1)?.body as Record<string, unknown>;
      assert.equal('usage' in upstream, false, `${model}: the accounting field is the gateway's, not the upstream's`);
    }
    // `include: false` asks for nothing, and is still not forwarded.
    const quiet = await chat({ model: 'gpt-4o-mini', usage: { include: false } });
    assert.equal(quiet.body.usage.cost, undefined);
    assert.equal('usage' in (harness.simulator.requests.at(-1)?.body as Record<string, unknown>), false);
  });

  /** The data chunks of an OpenAI chat stream, parsed ([DONE] left out). */
  const streamChunks = async (body: Record<string, unknown>): Promise<any[]> => {
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: true, ...body }),
    });
    assert.equal(response.status, 200);
    const text = await response.text();
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice(6)));
  };

  test('a stream asked with usage: {"include": true} ends with a usage chunk carrying the cost, passthrough and translated', async () => {
    for (const model of ['gpt-4o-mini', 'claude-sonnet-4-5']) {
      const chunks = await streamChunks({ model, usage: { include: true } });
      const withUsage = chunks.filter((chunk) => chunk.usage);
      assert.equal(withUsage.length, 1, `${model}: one final usage chunk`);
      assert.equal(withUsage[0].usage.cost, COST_USD, model);
      assert.equal(withUsage[0].usage.completion_tokens, 5, model);
      assert.equal(await billed(), COST_USD, model);
      assert.equal('usage' in (harness.simulator.requests.at(-1)?.body as Record<string, unknown>), false, model);
    }
    // Not asked: a stream_options usage chunk stays as OpenAI writes it, without a cost.
    const plain = await streamChunks({ model: 'gpt-4o-mini', stream_options: { include_usage: true } });
    const usage = plain.filter((chunk) => chunk.usage);
    assert.equal(usage.length, 1);
    assert.equal(usage[0].usage.cost, undefined);
  });

  test("the cost is the payer's: the group multiplier applies", async () => {
    const vip = (await harness.addKey({ group: 'vip', balance: 100 })).key;
    const reply = await chat({ model: 'gpt-4o-mini', usage: { include: true } }, vip);
    assert.equal(reply.body.usage.cost, 0.003);
    assert.equal(reply.cost, '0.003');
    assert.equal(await billed(vip), 0.003);
  });

  test('an Anthropic client gets the header too, its body stays Anthropic-shaped', async () => {
    const response = await fetch(`${harness.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-switchyard-cost'), String(COST_USD));
    const body = (await response.json()) as any;
    assert.equal(body.usage.cost, undefined);
    assert.equal(await billed(), COST_USD);
  });
});
