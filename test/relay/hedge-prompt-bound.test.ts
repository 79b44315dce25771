import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';

/**
 * Issue 23, item 7: a tenant controls the time to first byte with the prompt's length, and every
 * hedge pays the upstream for the whole prompt again, unbilled. A prompt over the bound
 * (FIRST_BYTE_DEADLINE_MAX_BODY_CHARS) gets no first-byte deadline: one upstream request, however
 * slow its first byte. A short prompt is still hedged.
 */
describe('hedging skips prompts over the size bound', () => {
  let harness: Harness;
  let slow: ProviderSimulator;
  let openai: OpenAI;

  before(async () => {
    harness = await startHarness({ firstByteDeadline: { coldMs: 100, minMs: 50, maxMs: 200, hedge: true, maxBodyChars: 4_000 } });
    slow = await startProviderSimulator();
    // The first choice answers after 600 ms: past the 100 ms deadline.
    slow.setDefault({ text: 'slow answer', delayMs: 600 });
    harness.simulator.setDefault({ text: 'fast answer' });
    await harness.addChannel({ provider: 'openai', models: ['m'], name: 'slow', baseUrl: `${slow.url}/v1`, priority: 10 });
    await harness.addChannel({ provider: 'openai', models: ['m'], name: 'fast', priority: 0 });
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: (await harness.addKey()).key, maxRetries: 0 });
  });
  after(async () => {
    await harness.close();
    await slow.close();
  });

  const streamText = async (prompt: string) => {
    const stream = await openai.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: prompt }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  };
  const upstreamRequests = () => slow.requests.length + harness.simulator.requests.length;

  test('a short prompt past its deadline is hedged (two upstream requests, the fast one serves)', async () => {
    const before = upstreamRequests();
    assert.equal(await streamText('hi'), 'fast answer');
    assert.equal(upstreamRequests() - before, 2);
  });

  test('a prompt over the bound is not: one upstream request, served by the slow channel', async () => {
    const before = upstreamRequests();
    assert.equal(await streamText('x'.repeat(5_000)), 'slow answer');
    assert.equal(upstreamRequests() - before, 1, 'the long prompt reached the upstream once');
  });
});
