import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createRuntime } from '../../src/core/create-runtime.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * Two equal Anthropic channels serve one model, each on its own simulator with Anthropic's prompt
 * caching simulated (per host, `cache_control` prefixes, 20-block lookback). A conversation moves
 * its breakpoint to the newest user message each turn, as Anthropic's documentation shows: the
 * previous turn's prefix is in the cache of whichever channel served it. With affinity every turn
 * stays on the first turn's channel and reads the whole previous prefix; the baseline
 * (AFFINITY_TTL_SECONDS=0, the weighted shuffle alone) is measured beside it.
 */
const MODEL = 'claude-affinity';
const SYSTEM = 'You answer briefly. (conversation-affinity test)';
const TURNS = 20;

interface Setup {
  harness: Harness;
  right: ProviderSimulator;
  /** Which channel each conversation request reached, in order ('left' | 'right'). */
  served: string[];
  channelIds: { left: string; right: string };
  client(key: string): Anthropic;
  key: string;
  close(): Promise<void>;
}

interface TurnResult {
  /** The channel that served the turn. */
  channel: string;
  /** Every channel the turn reached, in order (a refused attempt, then the one that served). */
  tried: string[];
  cacheRead: number;
  cacheWrite: number;
  input: number;
}

/** Forces the weighted shuffle's choice when set (0: the first candidate first; 0.999: the last first). */
let forcedRandom: number | undefined;

async function setUp(affinityTtlSeconds: number): Promise<Setup> {
  const base = createRuntime();
  const harness = await startHarness(
    {
      affinityTtlSeconds,
      runtime: { now: () => base.now(), generateId: (prefix) => base.generateId(prefix), random: () => forcedRandom ?? base.random() },
      circuit: { cooldownMs: 200, maxCooldownMs: 400 },
      healthCheckIntervalMs: 100,
    },
    { promptCache: true },
  );
  const right = await startProviderSimulator({ promptCache: true });
  const served: string[] = [];
  const watch = (simulator: ProviderSimulator, name: string) =>
    simulator.onRequest((request) => {
      const body = request.body as { system?: unknown } | undefined;
      if (request.endpoint === 'generate' && body?.system === SYSTEM) served.push(name);
    });
  watch(harness.simulator, 'left');
  watch(right, 'right');
  const left = await harness.addChannel({ provider: 'anthropic', models: [MODEL], name: 'left' });
  const rightChannel = await harness.addChannel({ provider: 'anthropic', models: [MODEL], name: 'right', baseUrl: right.url });
  const { key } = await harness.addKey();
  return {
    harness,
    right,
    served,
    channelIds: { left: left.id, right: rightChannel.id },
    client: (secret) => new Anthropic({ baseURL: harness.url, apiKey: secret, maxRetries: 0 }),
    key,
    close: async () => {
      await harness.close();
      await right.close();
    },
  };
}

/** A text of about 1,500 characters, different for every conversation and turn. */
function filler(conversation: string, turn: number): string {
  return Array.from({ length: 60 }, (_, index) => `${conversation}-${turn}-${index}`)
    .join(' ')
    .padEnd(1_500, '.');
}

/** One conversation, `turns` long: the breakpoint is on the newest user message only. */
async function converse(
  setup: Setup,
  client: Anthropic,
  conversation: string,
  turns: number,
  beforeTurn?: (turn: number) => Promise<void> | void,
): Promise<TurnResult[]> {
  const history: Anthropic.MessageParam[] = [];
  const results: TurnResult[] = [];
  for (let turn = 1; turn <= turns; turn += 1) {
    await beforeTurn?.(turn);
    const text = filler(conversation, turn);
    const before = setup.served.length;
    const reply = await client.messages.create({
      model: MODEL,
      max_tokens: 64,
      system: SYSTEM,
      messages: [...history, { role: 'user', content: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] }],
    });
    const reached = setup.served.slice(before);
    assert.ok(reached.length >= 1, `turn ${turn} reached a channel`);
    const usage = reply.usage;
    const cacheRead = usage.cache_read_input_tokens ?? 0;
    const cacheWrite = usage.cache_creation_input_tokens ?? 0;
    results.push({ channel: reached.at(-1) as string, tried: reached, cacheRead, cacheWrite, input: usage.input_tokens + cacheRead + cacheWrite });
    history.push(
      { role: 'user', content: [{ type: 'text', text }] },
      {
        role: 'assistant',
        content: reply.content.map((block) => (block.type === 'text' ? { type: 'text' as const, text: block.text } : block)) as Anthropic.ContentBlockParam[],
      },
    );
  }
  return results;
}

/** Turns (from the second) that read the previous turn's whole prefix from the cache. */
function fullReads(results: TurnResult[]): number {
  let count = 0;
  for (let index = 1; index < results.length; index += 1) {
    const previous = results[index - 1] as TurnResult;
    if ((results[index] as TurnResult).cacheRead >= previous.cacheRead + previous.cacheWrite) count += 1;
  }
  return count;
}

function summarise(label: string, conversations: TurnResult[][]): { anyRead: number; fullRead: number; cachedShare: number; turns: number; hops: number } {
  let anyRead = 0;
  let fullRead = 0;
  let cached = 0;
  let written = 0;
  let input = 0;
  let hops = 0;
  for (const results of conversations) {
    anyRead += results.slice(1).filter((result) => result.cacheRead > 0).length;
    fullRead += fullReads(results);
    hops += results.slice(1).filter((result, index) => result.channel !== results[index]?.channel).length;
    for (const result of results) {
      cached += result.cacheRead;
      written += result.cacheWrite;
      input += result.input;
    }
  }
  const turns = conversations.length * (TURNS - 1);
  const percent = (part: number) => Math.round((1000 * part) / input) / 10;
  // Claude's prices relative to fresh input: a cache write costs 1.25x, a cache read 0.1x.
  const cost = percent(input - cached - written + 1.25 * written + 0.1 * cached);
  const summary = { anyRead, fullRead, cachedShare: percent(cached), turns, hops };
  console.log(
    `${label}: turns 2-${TURNS} with a cache read ${anyRead}/${turns}, reading the whole previous turn ${fullRead}/${turns}, channel hops ${hops}/${turns}, ` +
      `input tokens read from cache ${summary.cachedShare}%, written to cache ${percent(written)}%, input cost ${cost}% of uncached`,
  );
  return summary;
}

const CONVERSATIONS = 5;

describe('conversation affinity: a 20-turn Anthropic conversation with cache_control over two equal channels', () => {
  let withAffinity: Setup;
  let baseline: Setup;
  before(async () => {
    withAffinity = await setUp(3_600);
    baseline = await setUp(0);
  });
  after(async () => {
    await withAffinity.close();
    await baseline.close();
  });

  test('with affinity all 20 turns land on one channel and turns 2-20 read the cache; measured against the weighted shuffle', async () => {
    const affinityRuns: TurnResult[][] = [];
    const baselineRuns: TurnResult[][] = [];
    for (let run = 0; run < CONVERSATIONS; run += 1) {
      affinityRuns.push(await converse(withAffinity, withAffinity.client(withAffinity.key), `a${run}`, TURNS));
      baselineRuns.push(await converse(baseline, baseline.client(baseline.key), `b${run}`, TURNS));
    }
    for (const results of [...affinityRuns, ...baselineRuns]) {
      assert.ok(
        results.every((result) => result.tried.length === 1),
        'one attempt a turn',
      );
    }
    for (const results of affinityRuns) {
      assert.equal(new Set(results.map((result) => result.channel)).size, 1, `one channel: ${results.map((result) => result.channel).join(' ')}`);
      assert.equal(results[0]?.cacheRead, 0);
      assert.ok(
        results.slice(1).every((result) => result.cacheRead > 0),
        'turns 2-20 read the cache',
      );
      assert.equal(fullReads(results), TURNS - 1);
    }
    const on = summarise('affinity on (AFFINITY_TTL_SECONDS=3600)', affinityRuns);
    const off = summarise('affinity off (AFFINITY_TTL_SECONDS=0, weighted shuffle)', baselineRuns);
    assert.equal(on.fullRead, on.turns);
    assert.equal(on.hops, 0);
    // 95 coin flips: the shuffle hops channels on some of them.
    assert.ok(off.hops > 0, 'the baseline hops channels');
    assert.ok(off.fullRead < on.fullRead);
  });

  test('failover wins: the preferred channel refused, the next turn moves and the conversation stays on the other channel', async () => {
    const setup = withAffinity;
    const client = setup.client(setup.key);
    const simulators = { left: setup.harness.simulator, right: setup.right };
    let preferred: 'left' | 'right' | undefined;
    const results = await converse(setup, client, 'failover', 10, async (turn) => {
      if (turn === 4) {
        preferred = setup.served.at(-1) as 'left' | 'right';
        // The upstream refuses the credential: the channel's circuit opens at once.
        simulators[preferred].setDefault({ fault: { type: 'status', status: 401 } });
      }
      if (turn === 5) {
        // Back in service (health check, circuit closed): affinity does not pull the conversation back.
        simulators[preferred as 'left' | 'right'].setDefault({});
        const id = setup.channelIds[preferred as 'left' | 'right'];
        await waitFor(async () => (await setup.harness.admin('GET', `/channels/${id}`)).health.state === 'closed', 'preferred channel back');
      }
    });
    const channels = results.map((result) => result.channel);
    assert.ok(preferred);
    const other = preferred === 'left' ? 'right' : 'left';
    assert.deepEqual(channels.slice(0, 3), [preferred, preferred, preferred]);
    // Turn 4 tried the preferred channel first (refused), then the other served it and every later turn.
    assert.deepEqual(results[3]?.tried, [preferred, other]);
    assert.deepEqual(
      channels.slice(3),
      Array.from({ length: 7 }, () => other),
    );
    assert.ok(
      results.slice(5).every((result) => result.cacheRead > 0),
      'warm on the new channel from turn 6',
    );
  });

  test('OpenAI clients: a Responses previous_response_id chain and a prompt_cache_key keep their channel against the shuffle', async () => {
    const setup = withAffinity;
    const model = 'gpt-affinity';
    await setup.harness.addChannel({ provider: 'openai', models: [model], name: 'left-openai' });
    await setup.harness.addChannel({ provider: 'openai', models: [model], name: 'right-openai', baseUrl: `${setup.right.url}/v1` });
    const simulators = { left: setup.harness.simulator, right: setup.right };
    const counts = () =>
      Object.fromEntries(Object.entries(simulators).map(([name, sim]) => [name, sim.requests.filter((request) => request.model === model).length]));
    const reached = (before: Record<string, number>) => {
      const now = counts();
      return Object.keys(now).filter((name) => (now[name] ?? 0) > (before[name] ?? 0));
    };
    const openai = new OpenAI({ baseURL: `${setup.harness.url}/v1`, apiKey: setup.key, maxRetries: 0 });
    try {
      // The shuffle alone would alternate channels turn by turn.
      const chain: string[] = [];
      let previous: string | undefined;
      for (let index = 0; index < 6; index += 1) {
        forcedRandom = index % 2 === 0 ? 0 : 0.999;
        const before = counts();
        const response = await openai.responses.create({
          model,
          input: `step ${index}`,
          ...(previous === undefined ? {} : { previous_response_id: previous }),
        });
        previous = response.id;
        chain.push(...reached(before));
      }
      assert.equal(chain.length, 6);
      assert.equal(new Set(chain).size, 1, `one channel for the chain: ${chain.join(' ')}`);

      const keyed: string[] = [];
      for (let index = 0; index < 6; index += 1) {
        forcedRandom = index % 2 === 0 ? 0.999 : 0;
        const before = counts();
        await openai.chat.completions.create({ model, prompt_cache_key: 'session-42', messages: [{ role: 'user', content: `step ${index}` }] });
        keyed.push(...reached(before));
      }
      assert.equal(keyed.length, 6);
      assert.equal(new Set(keyed).size, 1, `one channel for the cache key: ${keyed.join(' ')}`);
      // Without a key or chain the shuffle decides, as before.
      const free: string[] = [];
      for (const random of [0, 0.999]) {
        forcedRandom = random;
        const before = counts();
        await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'no key' }] });
        free.push(...reached(before));
      }
      assert.equal(new Set(free).size, 2);
    } finally {
      forcedRandom = undefined;
    }
  });

  test("another key's conversation is not steered by this key's affinity", async () => {
    const setup = withAffinity;
    const { key: otherKey } = await setup.harness.addKey();
    forcedRandom = 0;
    try {
      const first = await converse(setup, setup.client(setup.key), 'shared', 1);
      const home = first[0]?.channel;
      // From now on the shuffle alone would put the other channel first.
      forcedRandom = 0.999;
      const mine = await converse(setup, setup.client(setup.key), 'shared', 3);
      assert.deepEqual(
        mine.map((result) => result.channel),
        [home, home, home],
        'the same conversation stays on its channel against the shuffle',
      );
      // The other key sends the very same conversation: nothing of the first key's steers it.
      const theirs = await converse(setup, setup.client(otherKey), 'shared', 3);
      const away = home === 'left' ? 'right' : 'left';
      assert.deepEqual(
        theirs.map((result) => result.channel),
        [away, away, away],
      );
    } finally {
      forcedRandom = undefined;
    }
  });
});
