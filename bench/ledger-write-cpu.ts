/**
 * The ledger's cost per request (issue 27), in one process on SQLite, without HTTP noise:
 * building a request's rows (one attempt, one charge) on the request path, and writing them in the
 * usage writer's 32-row slices beside the usage rows, against usage rows alone and against the
 * earlier way (the ledger's own Kysely transaction per 200 requests). CPU µs per request,
 * interleaved rounds; the ratios within a round are what a shared box does not distort.
 *
 * `node --import tsx bench/ledger-write-cpu.ts [--requests N] [--rounds R]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UsageLogEntry } from '../src/domain/usage-log-entry.ts';
import type { ModelPrice } from '../src/domain/model-price.ts';
import { buildLedgerEntries } from '../src/ledger/build-ledger-entries.ts';
import { convertOpenAiUsage } from '../src/protocols/openai-chat/convert-openai-usage.ts';
import { createStore } from '../src/store/create-store.ts';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const requests = arg('--requests', 20_000);
const rounds = arg('--rounds', 3);
const SLICE = 32;
const price = { model: 'm', inputPerMillion: 150_000, outputPerMillion: 600_000, version: 'v1' } as ModelPrice;

function usageRow(id: string, time: number): UsageLogEntry {
  return {
    requestId: id,
    time,
    keyId: 'k',
    keyName: 'n',
    group: 'g',
    model: 'm',
    upstreamModel: 'm',
    channelId: 'c',
    channelName: 'c',
    clientProtocol: 'openai-chat',
    upstreamProtocol: 'openai-chat',
    surface: null,
    status: 200,
    errorCode: null,
    errorMessage: null,
    inputTokens: 100,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 10,
    latencyMs: 5,
    ttftMs: null,
    stream: false,
    warnings: [],
    attempts: [{ channelId: 'c', channelName: 'c', status: 200, errorCode: null, latencyMs: 5 }],
    clientIp: null,
  };
}

function withLedger(entry: UsageLogEntry): UsageLogEntry {
  const reported = convertOpenAiUsage({ prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 });
  entry.ledger = buildLedgerEntries(
    {
      requestId: entry.requestId,
      time: entry.time,
      model: 'm',
      group: 'g',
      keyId: 'k',
      accountId: null,
      upstreamProtocol: 'openai-chat',
      attempts: [{ channelId: 'c', status: 200, errorCode: null }],
      committed: 0,
      reported,
      billed: reported,
      charge: { micros: 10, version: 's1', payer: 'key_spend', payerId: 'k' },
      estimatedInputTokens: 100,
    },
    () => ({ price, multiplier: 1, basis: 'own' }),
  );
  return entry;
}

const cpu = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / requests;
};

const directory = mkdtempSync(join(tmpdir(), 'switchyard-ledger-bench-'));
const store = await createStore({ databaseUrl: `sqlite:${join(directory, 'bench.db')}`, secretKey: Buffer.from('ledger-bench-secret-0123456789abcdef') });
console.log(
  '| round | build usage + ledger rows µs/req | usage rows alone µs/req | + ledger rows in the usage slice µs/req | + ledger by its own transaction (before) µs/req |',
);
console.log('|---|---|---|---|---|');
for (let round = 1; round <= rounds; round++) {
  const time = Date.UTC(2026, 0, 1) + round;
  const plain = Array.from({ length: requests }, (_, i) => usageRow(`p${round}_${i}`, time));
  let since = process.cpuUsage();
  const ledgered = Array.from({ length: requests }, (_, i) => withLedger(usageRow(`l${round}_${i}`, time)));
  const build = cpu(since);
  const write = async (rows: UsageLogEntry[]) => {
    for (let start = 0; start < rows.length; start += SLICE) await store.usage.insertMany(rows.slice(start, start + SLICE));
  };
  since = process.cpuUsage();
  await write(plain);
  const alone = cpu(since);
  since = process.cpuUsage();
  await write(ledgered);
  const together = cpu(since);
  const before = ledgered.map((entry) => ({ ...entry, requestId: `b${entry.requestId}`, ledger: undefined }));
  const own = ledgered.map((entry) => ({
    attempts: entry.ledger?.attempts.map((attempt) => ({ ...attempt, requestId: `b${attempt.requestId}` })) ?? [],
    charges: entry.ledger?.charges.map((charge) => ({ ...charge, requestId: `b${charge.requestId}` })) ?? [],
  }));
  since = process.cpuUsage();
  await write(before as UsageLogEntry[]);
  for (let start = 0; start < own.length; start += 200) {
    const batch = own.slice(start, start + 200);
    await store.ledger.insertMany(
      batch.flatMap((rows) => rows.attempts),
      batch.flatMap((rows) => rows.charges),
    );
  }
  const separate = cpu(since);
  console.log(`| ${round} | ${build.toFixed(1)} | ${alone.toFixed(1)} | ${together.toFixed(1)} | ${separate.toFixed(1)} |`);
}
await store.close();
rmSync(directory, { recursive: true, force: true });
