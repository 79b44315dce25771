import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import { UPSTREAM_SECRET } from '../helpers/gateway-harness.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';
import { startGatewayProcesses, type GatewayProcesses } from './gateway-processes.ts';

// $1 per million output tokens, 100 output tokens a reply: 100 micro-USD a completed stream.
const COST = 100;
const WALLET_MICROS = 10_000_000;

/** One streamed chat completion; resolves with what arrived, or the error that cut it. */
async function stream(url: string, key: string): Promise<{ status: number; body: string; error?: string }> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 100,
    }),
  });
  let body = '';
  try {
    const decoder = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) body += decoder.decode(chunk, { stream: true });
    return { status: response.status, body };
  } catch (error) {
    return { status: response.status, body, error: String(error) };
  }
}

/**
 * Four gateway processes on one database and Redis, two streams running on each; one process is
 * SIGKILLed mid-stream. Its clients see their stream end in an error at once (a killed process
 * can send nothing more: the connection is reset), the other instances' streams finish untouched,
 * the shared wallet is charged exactly once per finished stream, and the dead instance's holds are
 * released by the survivors within 15 s (what its streams delivered is not billed: released, not
 * settled, since the dead instance recorded no progress).
 */
test('one of four instances SIGKILLed mid-stream: its clients see an error, the others finish, the wallet is exact', {
  timeout: 240_000,
  skip: process.env.SCALE_HEAVY !== '1',
}, async () => {
  let simulator: ProviderSimulator | undefined;
  let processes: GatewayProcesses | undefined;
  try {
    simulator = await startProviderSimulator();
    processes = await startGatewayProcesses({ count: 4 });
    const p = processes;
    await p.admin(0, 'POST', '/channels', {
      name: 'sim',
      provider: 'openai',
      baseUrl: `${simulator.url}/v1`,
      apiKey: UPSTREAM_SECRET,
      models: ['gpt-4o-mini'],
      groups: ['default'],
    });
    await p.admin(0, 'POST', '/prices', { model: 'gpt-4o-mini', input: 0, output: 1 });
    const user = await p.admin(0, 'POST', '/users', { name: 'streams', balance: WALLET_MICROS / 1_000_000 });
    const key = await p.admin(0, 'POST', '/keys', { name: 'streams', group: 'default', user: user.id });
    simulator.setDefault({ text: Array.from({ length: 40 }, (_, index) => `word${index}`).join(' '), usage: { input: 10, output: 100 }, chunkDelayMs: 75 });
    for (const gateway of p.gateways)
      await waitFor(
        async () => (await fetch(`${gateway.url}/api/me`, { headers: { authorization: `Bearer ${key.key}` } })).status === 200,
        'every instance knows the key',
        20_000,
      );

    const victim = 1;
    const streams = p.gateways.flatMap((gateway, index) => [0, 1].map(() => stream(gateway.url, key.key).then((result) => ({ ...result, index }))));
    await waitFor(() => (simulator as ProviderSimulator).activeRequests() === 8, 'all eight streams reached the upstream', 20_000);
    await delay(700);
    const killedAt = Date.now();
    await p.gateways[victim]?.kill('SIGKILL');
    const results = await Promise.all(streams);
    const cutMs = Date.now() - killedAt;

    const killed = results.filter((result) => result.index === victim);
    const others = results.filter((result) => result.index !== victim);
    for (const result of killed) {
      assert.ok(result.error !== undefined, 'a stream of the killed instance ends in an error, not as if complete');
      assert.ok(!result.body.includes('[DONE]'));
      assert.ok(result.body.includes('word0'), 'it had been delivering');
    }
    for (const result of others) {
      assert.equal(result.error, undefined);
      assert.equal(result.status, 200);
      assert.ok(result.body.includes('word39') && result.body.includes('[DONE]'), 'a stream of another instance finishes untouched');
    }
    const finished = others.length;
    const rows = async () =>
      (
        await p.query<{ count: string; cost: string }>('select count(*) as count, coalesce(sum(cost_micros), 0) as cost from usage_logs where key_id = $1', [
          key.id,
        ])
      )[0];
    await waitFor(async () => (await rows())?.count === String(finished), 'a usage row for every finished stream', 15_000);
    assert.deepEqual(await rows(), { count: String(finished), cost: String(finished * COST) }, 'each finished stream billed once');
    await waitFor(
      async () =>
        Number((await p.query<{ balance: string }>('select balance_micros as balance from users where id = $1', [user.id]))[0]?.balance) ===
        WALLET_MICROS - finished * COST,
      'the database wallet is charged once per finished stream',
      15_000,
    );
    // The dead instance's holds are released by the survivors (kv/hold-journal.ts) within 15 s of
    // the kill: the live wallet every survivor shows equals the database's again.
    const survivors = p.gateways.filter((_, index) => index !== victim);
    const live = async () =>
      Promise.all(
        survivors.map(
          async (gateway) =>
            ((await (await fetch(`${gateway.url}/api/me`, { headers: { authorization: `Bearer ${key.key}` } })).json()) as { balance: number }).balance,
        ),
      );
    let available: number[] = [];
    await waitFor(
      async () => (available = await live()).every((balance) => Math.round(balance * 1_000_000) === WALLET_MICROS - finished * COST),
      "the dead instance's holds are released",
      20_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: live wallet ${JSON.stringify(available)}`);
    });
    const releasedMs = Date.now() - killedAt;
    assert.ok(releasedMs <= 15_000, `holds released ${releasedMs} ms after the kill`);
    console.log(
      `[figures kill mid-stream] ${JSON.stringify({ cutMs, releasedMs, finished, killedStreams: killed.length, killedErrors: killed.map((result) => result.error), liveWallet: available, databaseWallet: (WALLET_MICROS - finished * COST) / 1_000_000 })}`,
    );
  } finally {
    await processes?.close();
    await simulator?.close();
  }
});
