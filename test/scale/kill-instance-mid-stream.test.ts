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
/** Words a reply streams, one chunk each every 100 ms. */
const WORDS = 80;

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
 * SIGKILLed mid-stream, after it has recorded its streams' progress (every 2 s). Its clients see
 * their stream end in an error at once (a killed process can send nothing more: the connection is
 * reset), the other instances' streams finish untouched and are billed once each, and within 15 s
 * of the kill a survivor bills each of the killed streams once from the progress the dead
 * instance last recorded (usage row marked `instance_lost`); the database wallet then equals its
 * balance minus the logged cost exactly, and so does the live wallet every survivor shows.
 */
test('one of four instances SIGKILLed mid-stream: its clients see an error, the others finish, its streams are billed once from progress', {
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
    // About 8 s a stream: the victim records progress (every 2 s) before it is killed, 3 s in.
    simulator.setDefault({ text: Array.from({ length: WORDS }, (_, index) => `word${index}`).join(' '), usage: { input: 10, output: 100 }, chunkDelayMs: 100 });
    for (const gateway of p.gateways)
      await waitFor(
        async () => (await fetch(`${gateway.url}/api/me`, { headers: { authorization: `Bearer ${key.key}` } })).status === 200,
        'every instance knows the key',
        // Generous: on a loaded box the four processes' snapshot reloads take a while.
        45_000,
      );

    const victim = 1;
    const streams = p.gateways.flatMap((gateway, index) => [0, 1].map(() => stream(gateway.url, key.key).then((result) => ({ ...result, index }))));
    await waitFor(() => (simulator as ProviderSimulator).activeRequests() === 8, 'all eight streams reached the upstream', 20_000);
    await delay(3_000);
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
      assert.ok(result.body.includes(`word${WORDS - 1}`) && result.body.includes('[DONE]'), 'a stream of another instance finishes untouched');
    }
    const finished = others.length;
    const rows = (where: string) =>
      p.query<{ count: string; cost: string }>(
        `select count(*) as count, coalesce(sum(cost_micros), 0) as cost from usage_logs where key_id = $1 and ${where}`,
        [key.id],
      );
    // The killed instance's streams: each billed once, by a survivor, from its recorded progress.
    let billedMs = 0;
    await waitFor(
      async () => {
        const [lost] = await rows("error_code = 'instance_lost'");
        if (lost?.count !== String(killed.length)) return false;
        billedMs = Date.now() - killedAt;
        return true;
      },
      "a usage row for each of the killed instance's streams",
      20_000,
    );
    assert.ok(billedMs <= 15_000, `billed ${billedMs} ms after the kill`);
    await waitFor(async () => (await rows('true'))[0]?.count === String(finished + killed.length), 'a usage row for every stream', 15_000);
    assert.deepEqual(
      (await rows('error_code is null'))[0],
      { count: String(finished), cost: String(finished * COST) },
      'each finished stream billed once, in full',
    );
    const lostRows = await p.query<{ cost: string; output: string; warnings: unknown }>(
      "select cost_micros as cost, output_tokens as output, warnings from usage_logs where key_id = $1 and error_code = 'instance_lost'",
      [key.id],
    );
    for (const row of lostRows) {
      assert.ok(Number(row.cost) > 0 && Number(row.cost) < COST, `a killed stream billed what it had delivered (${row.cost} micro-USD)`);
      assert.equal(Number(row.cost), Number(row.output), 'at $1 a million output tokens: its delivered tokens');
      assert.ok(JSON.stringify(row.warnings).includes('billed:recorded-progress'));
    }
    const logged = Number((await rows('true'))[0]?.cost);
    const databaseWallet = async () =>
      Number((await p.query<{ balance: string }>('select balance_micros as balance from users where id = $1', [user.id]))[0]?.balance);
    await waitFor(async () => (await databaseWallet()) === WALLET_MICROS - logged, 'the database wallet is its balance minus the logged cost', 15_000).catch(
      async (error: Error) => {
        throw new Error(`${error.message}: wallet ${await databaseWallet()}, logged ${logged}`);
      },
    );
    // The live wallet every survivor shows is the database's too: no hold is left hanging.
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
      async () => (available = await live()).every((balance) => Math.round(balance * 1_000_000) === WALLET_MICROS - logged),
      "the dead instance's holds are settled",
      20_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: live wallet ${JSON.stringify(available)}`);
    });
    const settledMs = Date.now() - killedAt;
    console.log(
      `[figures kill mid-stream] ${JSON.stringify({ cutMs, billedMs, settledMs, finished, killedStreams: killed.length, killedCosts: lostRows.map((row) => Number(row.cost)), killedErrors: killed.map((result) => result.error), liveWallet: available, databaseWallet: (WALLET_MICROS - logged) / 1_000_000 })}`,
    );
  } finally {
    await processes?.close();
    await simulator?.close();
  }
});
