import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';
import { waitFor } from '../helpers/wait-for.ts';

// Output at $1 per million tokens = 1 micro-USD per token, input free: a reply of 7 output tokens costs 7.
const OUTPUT_TOKENS = 7;

/**
 * A channel that accepts the connection and never sends a byte ("hang", first in priority) and a
 * working one behind it. With the gateway's defaults (3 s first-byte deadline until a channel ×
 * model has history, hedging on), a streamed request must get its first byte from the working
 * channel within 5 s instead of the 120 s upstream timeout, billed once, for the attempt that served.
 */
describe('first-byte deadline: a channel that hangs before its first byte', () => {
  let harness: Harness;
  let hang: ProviderSimulator;
  let keyId: string;
  let openai: OpenAI;
  let anthropic: Anthropic;

  before(async () => {
    // The production first-byte timeout: only the deadline can rescue the caller in time.
    harness = await startHarness({ upstream: { connectMs: 2000, firstByteMs: 120_000, idleMs: 120_000 } });
    hang = await startProviderSimulator();
    for (const model of ['cold', 'warm']) {
      await harness.admin('POST', '/prices', { model, input: 0, output: 1 });
    }
    await harness.addChannel({ provider: 'openai', models: ['cold', 'warm'], name: 'hang', baseUrl: `${hang.url}/v1`, priority: 10 });
    await harness.addChannel({ provider: 'openai', models: ['cold', 'warm'], name: 'steady', priority: 0 });
    const created = await harness.addKey({ balance: 1 });
    keyId = created.id;
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: created.key, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: harness.url, apiKey: created.key, maxRetries: 0 });
    harness.simulator.setDefault({ text: 'steady answer', usage: { input: 5, output: OUTPUT_TOKENS } });
  });
  after(async () => {
    await harness.close();
    await hang.close();
  });

  const lastLog = async () => (await harness.admin('GET', '/logs?limit=1')).data[0];
  const balanceMicros = async () => Math.round((await harness.admin('GET', `/keys/${keyId}`)).balance * 1_000_000);

  /** Streams a chat completion; returns the text and when its first chunk reached the client. */
  const streamChat = async (model: string) => {
    const started = performance.now();
    const stream = await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let firstByteMs: number | undefined;
    let text = '';
    for await (const chunk of stream) {
      firstByteMs ??= performance.now() - started;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    return { text, firstByteMs: firstByteMs ?? Number.NaN };
  };

  test('cold (no history): the stream is served by the next channel within 5 s, billed once', async () => {
    hang.setDefault({ fault: { type: 'hang' } });
    await waitFor(async () => (await balanceMicros()) === 1_000_000, 'opening balance');
    const { text, firstByteMs } = await streamChat('cold');
    console.log(`[figures first-byte] hanging primary, cold deadline: first byte after ${Math.round(firstByteMs)} ms`);
    assert.equal(text, 'steady answer');
    assert.ok(firstByteMs < 5_000, `first byte after ${firstByteMs} ms`);
    assert.ok(firstByteMs >= 2_900, `hedged before the 3 s cold deadline (${firstByteMs} ms)`);

    const log = await lastLog();
    assert.equal(log.channelName, 'steady');
    assert.equal(log.status, 200);
    assert.deepEqual(
      log.attempts.map((attempt: { channelName: string; errorCode: string | null }) => [attempt.channelName, attempt.errorCode]),
      [
        ['hang', 'first_byte_timeout'],
        ['steady', null],
      ],
    );
    assert.equal(log.costMicros, OUTPUT_TOKENS);
    // Exactly one row and one charge, for the attempt that served.
    const { data } = await harness.admin('GET', `/logs?limit=10&key=${keyId}`);
    assert.equal(data.length, 1);
    await waitFor(async () => (await balanceMicros()) === 1_000_000 - OUTPUT_TOKENS, 'one charge of 7 micro-USD');
    // The hanging upstream request was let go of.
    await waitFor(() => hang.activeRequests() === 0, 'hanging request closed', 2000);
    assert.equal(hang.requests.length, 1);
  });

  test('the same in another protocol (Anthropic client, translated): first byte within 5 s', async () => {
    hang.setDefault({ fault: { type: 'hang' } });
    const started = performance.now();
    let firstByteMs: number | undefined;
    const stream = anthropic.messages.stream({ model: 'cold', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    stream.on('streamEvent', () => {
      firstByteMs ??= performance.now() - started;
    });
    const message = await stream.finalMessage();
    assert.equal(message.content[0]?.type === 'text' ? message.content[0].text : '', 'steady answer');
    assert.ok(firstByteMs !== undefined && firstByteMs < 5_000, `first byte after ${firstByteMs} ms`);
    assert.equal((await lastLog()).channelName, 'steady');
  });

  test('warm: with history on the channel × model, the deadline follows it (the 2 s floor for a fast channel)', async () => {
    hang.setDefault({ text: 'hang is fine', usage: { input: 5, output: OUTPUT_TOKENS } });
    for (let index = 0; index < 10; index += 1) assert.equal((await streamChat('warm')).text, 'hang is fine');
    hang.setDefault({ fault: { type: 'hang' } });
    const { text, firstByteMs } = await streamChat('warm');
    console.log(`[figures first-byte] hanging primary, warm deadline: first byte after ${Math.round(firstByteMs)} ms`);
    assert.equal(text, 'steady answer');
    assert.ok(firstByteMs >= 1_900 && firstByteMs < 3_500, `first byte after ${firstByteMs} ms (deadline: the 2 s floor)`);
  });

  test('a hanging model opens its own circuit on the channel; later streams skip it at once', async () => {
    hang.setDefault({ fault: { type: 'hang' } });
    const health = async () => (await harness.admin('GET', '/channels/hang')).health;
    // Each late attempt counted as a timeout against hang × cold; a few more open its circuit.
    await waitFor(
      async () => {
        if ((await health()).models.some((entry: { model: string; state: string }) => entry.model === 'cold' && entry.state === 'open')) return true;
        await streamChat('cold');
        return false;
      },
      'hang × cold circuit open',
      60_000,
    );
    const { firstByteMs } = await streamChat('cold');
    assert.ok(firstByteMs < 1_000, `first byte after ${firstByteMs} ms with the circuit open`);
    assert.equal((await lastLog()).attempts[0].errorCode, 'circuit_open');
  });
});

/**
 * Hedging keeps the late attempt: when it answers before the hedge, it wins, and the hedge is
 * cancelled without counting against its channel.
 */
describe('hedging: the first attempt to send a byte wins', () => {
  let harness: Harness;
  let slow: ProviderSimulator;
  let openai: OpenAI;

  before(async () => {
    harness = await startHarness({
      upstream: { connectMs: 2000, firstByteMs: 120_000, idleMs: 120_000 },
      firstByteDeadline: { coldMs: 600, minMs: 600 },
    });
    slow = await startProviderSimulator();
    await harness.addChannel({ provider: 'openai', models: ['m'], name: 'slow', baseUrl: `${slow.url}/v1`, priority: 10 });
    await harness.addChannel({ provider: 'openai', models: ['m'], name: 'stuck', priority: 0 });
    const { key } = await harness.addKey();
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(async () => {
    await harness.close();
    await slow.close();
  });

  test('late first attempt answers while the hedge hangs: the first is served, the hedge cancelled', async () => {
    slow.setDefault({ text: 'slow but there', delayMs: 900 });
    harness.simulator.setDefault({ fault: { type: 'hang' } });
    const stream = await openai.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'slow but there');
    const log = (await harness.admin('GET', '/logs?limit=1')).data[0];
    assert.equal(log.channelName, 'slow');
    assert.deepEqual(
      log.attempts.map((attempt: { channelName: string; errorCode: string | null }) => [attempt.channelName, attempt.errorCode]),
      [
        ['slow', null],
        ['stuck', 'cancelled'],
      ],
    );
    assert.equal(harness.simulator.requests.length, 1, 'the hedge was sent');
    await waitFor(() => harness.simulator.activeRequests() === 0, 'hedge closed', 2000);
    const stuck = (await harness.admin('GET', '/channels/stuck')).health;
    assert.equal(stuck.lastError, null, 'a cancelled hedge is not held against its channel');
  });
});

/** With HEDGE_STREAMS=false a late attempt is given up for the next candidate instead of kept. */
describe('without hedging: a late attempt is given up for the next channel', () => {
  let harness: Harness;
  let slow: ProviderSimulator;
  let openai: OpenAI;

  before(async () => {
    harness = await startHarness({
      upstream: { connectMs: 2000, firstByteMs: 120_000, idleMs: 120_000 },
      firstByteDeadline: { coldMs: 600, minMs: 600, hedge: false },
    });
    slow = await startProviderSimulator();
    await harness.addChannel({ provider: 'openai', models: ['m'], name: 'slow', baseUrl: `${slow.url}/v1`, priority: 10 });
    await harness.addChannel({ provider: 'openai', models: ['m'], name: 'next', priority: 0 });
    const { key } = await harness.addKey();
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(async () => {
    await harness.close();
    await slow.close();
  });

  test('the late first attempt is cancelled at its deadline, though it would have answered; the next channel serves', async () => {
    slow.setDefault({ text: 'too late', delayMs: 1_500 });
    harness.simulator.setDefault({ text: 'next answer', delayMs: 1_000 });
    const stream = await openai.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'next answer');
    const log = (await harness.admin('GET', '/logs?limit=1')).data[0];
    assert.deepEqual(
      log.attempts.map((attempt: { channelName: string; errorCode: string | null }) => [attempt.channelName, attempt.errorCode]),
      [
        ['slow', 'first_byte_timeout'],
        ['next', null],
      ],
    );
    await waitFor(() => slow.activeRequests() === 0, 'late attempt closed', 2000);
  });
});
