import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * Two channels serve the same model: "flaky" on its own simulator, which misbehaves on demand,
 * and "steady" on the harness's simulator. No fault on the flaky one may reach the client while
 * the steady one can serve, and the flaky channel's circuit must open, half-open and close.
 */
describe('failover under injected upstream faults', () => {
  let harness: Harness;
  let flaky: ProviderSimulator;
  let flakyId: string;
  let client: OpenAI;
  let key: string;

  before(async () => {
    harness = await startHarness({
      upstream: { connectMs: 1000, firstByteMs: 400, idleMs: 400 },
      circuit: { windowMs: 60_000, minimumRequests: 3, errorRateThreshold: 0.5, cooldownMs: 300, maxCooldownMs: 600 },
      healthCheckIntervalMs: 100,
    });
    flaky = await startProviderSimulator();
    // Priority puts the flaky channel first, so every request meets the fault before failing over.
    const created = await harness.addChannel({ provider: 'openai', models: ['shared'], name: 'flaky', baseUrl: `${flaky.url}/v1`, priority: 10 });
    flakyId = created.id;
    await harness.addChannel({ provider: 'openai', models: ['shared'], name: 'steady', priority: 0 });
    ({ key } = await harness.addKey());
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(async () => {
    await harness.close();
    await flaky.close();
  });
  beforeEach(() => {
    flaky.reset();
    harness.simulator.reset();
  });

  const flakyHealth = async () => (await harness.admin('GET', `/channels/${flakyId}`)).health;
  // Back in service: the channel's circuit and every model's own circuit on it are closed.
  const flakyUp = async () => {
    const health = await flakyHealth();
    return health.state === 'closed' && health.models.length === 0;
  };
  const ask = () => client.chat.completions.create({ model: 'shared', messages: [{ role: 'user', content: 'hi' }] });

  for (const [name, fault] of [
    ['500', { type: 'status', status: 500 }],
    ['429 with retry-after', { type: 'status', status: 429, retryAfter: 1 }],
    ['connection reset', { type: 'reset' }],
    ['no answer (first-byte timeout)', { type: 'hang' }],
  ] as const) {
    test(`${name}: the client never sees it; the steady channel answers`, async () => {
      flaky.setDefault({ fault });
      harness.simulator.setDefault({ text: 'steady answer' });
      for (let index = 0; index < 4; index += 1) {
        const completion = await ask();
        assert.equal(completion.choices[0]?.message.content, 'steady answer');
      }
      const { data } = await harness.admin('GET', '/logs?limit=1');
      assert.equal(data[0].channelName, 'steady');
      assert.equal(data[0].status, 200);
      // Until the circuit opened (or the pause began), each request tried flaky first.
      assert.ok(data[0].attempts.length >= 1);
      flaky.setDefault({});
      await waitFor(flakyUp, 'flaky channel back in service');
    });
  }

  test('the circuit opens after the error rate, half-opens after the cool-down and closes on recovery', async () => {
    flaky.setDefault({ fault: { type: 'status', status: 503 } });
    for (let index = 0; index < 3; index += 1) await ask();
    const health = await flakyHealth();
    // A 503 from a host that answers is about the model: its circuit on the channel opens.
    assert.equal(health.state, 'closed');
    const opened = health.models.find((entry: { model: string }) => entry.model === 'shared');
    assert.equal(opened.state, 'open');
    // Opened on the error rate, or (when a slow machine let the 300 ms cool-down pass) reopened by a failed probe.
    assert.match(opened.reason, /recent requests failed|503/);
    assert.equal(health.lastError.status, 503);

    // While open, requests go straight to the steady channel.
    const before = flaky.requests.length;
    await ask();
    const { data } = await harness.admin('GET', '/logs?limit=1');
    assert.equal(data[0].attempts[0].errorCode, 'circuit_open');
    // The health check may probe the open model circuit meanwhile (one request); the client's went to steady.
    assert.ok(flaky.requests.length <= before + 1);
    assert.equal(data[0].channelName, 'steady');

    // Recovery: the background health check probes after the cool-down and closes the circuit.
    flaky.setDefault({ text: 'flaky is fine again' });
    await waitFor(flakyUp, 'circuit closed by the health check');
    const completion = await ask();
    assert.equal(completion.choices[0]?.message.content, 'flaky is fine again');
  });

  test('an upstream 401 takes the channel out at once, with the reason shown', async () => {
    flaky.setDefault({ fault: { type: 'status', status: 401, message: 'Incorrect API key provided' } });
    harness.simulator.setDefault({ text: 'steady answer' });
    const completion = await ask();
    assert.equal(completion.choices[0]?.message.content, 'steady answer');
    const health = await flakyHealth();
    assert.equal(health.state, 'open');
    assert.match(health.reason, /upstream refused the channel: 401/);
    flaky.setDefault({});
    await waitFor(flakyUp, 'recovered after the credentials work again');
  });

  test('a 400 from the upstream is the request’s fault: returned as is, not retried', async () => {
    flaky.setDefault({ fault: { type: 'status', status: 400, message: 'messages: too long' } });
    await assert.rejects(ask(), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError);
      assert.match(error.message, /messages: too long/);
      return true;
    });
    assert.equal(harness.simulator.requests.length, 0, 'not retried on the steady channel');
    assert.equal((await flakyHealth()).state, 'closed');
  });

  test('POST /channels/:id/test reports status, latency and the error', async () => {
    flaky.setDefault({ fault: { type: 'status', status: 500, message: 'kaput' } });
    const failed = await harness.admin('POST', `/channels/${flakyId}/test`, {});
    assert.equal(failed.ok, false);
    assert.equal(failed.status, 500);
    assert.match(failed.error.message, /kaput/);
    flaky.setDefault({});
    const passed = await harness.admin('POST', `/channels/${flakyId}/test`, { model: 'shared' });
    assert.equal(passed.ok, true);
    assert.equal(passed.status, 200);
    assert.equal(typeof passed.latencyMs, 'number');
  });
});

describe('streams that go wrong', () => {
  let harness: Harness;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let key: string;

  before(async () => {
    harness = await startHarness({ upstream: { connectMs: 1000, firstByteMs: 2000, idleMs: 300 } });
    await harness.addChannel({ provider: 'openai', models: ['oa'] });
    await harness.addChannel({ provider: 'anthropic', models: ['an'] });
    ({ key } = await harness.addKey());
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: harness.url, apiKey: key, maxRetries: 0 });
  });
  after(() => harness.close());
  beforeEach(() => harness.simulator.reset());

  const lastLog = async () => (await harness.admin('GET', '/logs?limit=1')).data[0];

  test('a stall mid-stream is cut by the idle timeout with the protocol’s in-stream error, usage logged', async () => {
    harness.simulator.enqueue({ text: 'one two three four five six', fault: { type: 'stall', afterChunks: 3 } });
    const stream = await openai.chat.completions.create({ model: 'oa', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    await assert.rejects(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    }, OpenAI.APIError);
    assert.ok(text.length > 0, 'the first chunks arrived before the stall');
    const log = await lastLog();
    assert.equal(log.errorCode, 'stream_idle_timeout');
    assert.ok(log.outputTokens > 0, 'billed for what was delivered');
  });

  test('the same stall in translation (Anthropic client, OpenAI upstream) ends with event: error', async () => {
    harness.simulator.enqueue({ text: 'one two three four five six', fault: { type: 'stall', afterChunks: 3 } });
    await assert.rejects(
      anthropic.messages.stream({ model: 'oa', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage(),
      (error: unknown) => error instanceof Anthropic.APIError && /stopped sending/.test(error.message),
    );
  });

  for (const [kind, model, client] of [
    ['truncated-json', 'oa', 'openai'],
    ['missing-done', 'oa', 'openai'],
    ['missing-stop', 'an', 'anthropic'],
    ['truncated-json', 'an', 'openai'],
  ] as const) {
    test(`malformed upstream (${kind}, ${model} upstream, ${client} client) gives a well-formed error and a log row`, async () => {
      harness.simulator.enqueue({ text: 'alpha beta gamma delta', fault: { type: 'malformed', kind, afterChunks: 2 } });
      const consume =
        client === 'openai'
          ? async () => {
              const stream = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true });
              for await (const _chunk of stream) void _chunk;
            }
          : () => anthropic.messages.stream({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      await assert.rejects(consume(), (error: unknown) => error instanceof OpenAI.APIError || error instanceof Anthropic.APIError);
      const log = await lastLog();
      assert.equal(log.errorCode, 'upstream_invalid_response');
      assert.equal(log.status, 200);
    });
  }

  // The upstream would stream for another ~2.3 s (47 words × 50 ms): closed long before that means the
  // disconnect was passed on, not waited out. The bound is loose on purpose: this is a behaviour check on a
  // shared machine, not a timing figure (the bench measures speed).
  test('a client that disconnects mid-stream closes the upstream request at once, not when the stream ends', async () => {
    harness.simulator.enqueue({ text: Array.from({ length: 50 }, (_, index) => `w${index}`).join(' '), chunkDelayMs: 50 });
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: 'oa', messages: [{ role: 'user', content: 'hi' }], stream: true },
      { signal: controller.signal },
    );
    let chunks = 0;
    let abortedAt = 0;
    try {
      for await (const _chunk of stream) {
        chunks += 1;
        if (chunks === 3) {
          assert.equal(harness.simulator.activeRequests(), 1);
          abortedAt = Date.now();
          controller.abort();
          break;
        }
      }
    } catch (error) {
      assert.ok(error instanceof OpenAI.APIUserAbortError, `unexpected ${String(error)}`);
    }
    assert.equal(chunks, 3);
    await waitFor(() => harness.simulator.activeRequests() === 0, 'upstream request closed', 1000);
    assert.ok(Date.now() - abortedAt < 1000, `upstream closed after ${Date.now() - abortedAt} ms`);
  });
});
