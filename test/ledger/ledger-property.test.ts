import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { computeCostMicros } from '../../src/billing/compute-cost.ts';
import type { PriceVersion } from '../../src/domain/price-version.ts';
import { buildLedgerEntries, type AttemptFacts } from '../../src/ledger/build-ledger-entries.ts';
import { costPriceAt, sellPriceAt } from '../../src/snapshot/price-book.ts';
import { buildSnapshot } from '../../src/snapshot/snapshot.ts';

const MODEL = 'm';
const CHANNELS = ['ch_a', 'ch_b', 'ch_c'];

/** One attempt's fate: served (the reply), answered but not used (a failover after partial output, a hedge's loser with bytes), stopped after sending (hedge cancelled, first-byte timeout), or refused. */
const attemptKind = fc.constantFrom('answered-unused', 'cancelled', 'first_byte_timeout', 'refused-429', 'refused-500', 'circuit_open');
const price = fc.record({
  input: fc.integer({ min: 0, max: 20_000_000 }),
  output: fc.integer({ min: 0, max: 80_000_000 }),
  cacheRead: fc.integer({ min: 0, max: 5_000_000 }),
});
const usage = fc
  .record({ input: fc.integer({ min: 0, max: 300_000 }), output: fc.integer({ min: 0, max: 20_000 }), cached: fc.integer({ min: 0, max: 300_000 }) })
  .map(({ input, output, cached }) => ({ inputTokens: input, outputTokens: output, cacheReadTokens: Math.min(cached, input) }));
const request = fc.record({
  time: fc.integer({ min: 1_000, max: 100_000 }),
  before: fc.array(fc.record({ kind: attemptKind, channel: fc.constantFrom(...CHANNELS) }), { maxLength: 3 }),
  served: fc.option(fc.record({ channel: fc.constantFrom(...CHANNELS), usage, cut: fc.boolean() }), { nil: undefined }),
  estimate: fc.option(fc.integer({ min: 0, max: 300_000 }), { nil: undefined }),
  multiplier: fc.constantFrom(0, 0.5, 1, 1.5),
});
const versions = fc.array(
  fc.record({
    scope: fc.constantFrom('sell', 'cost', 'catalogue'),
    channel: fc.constantFrom(...CHANNELS),
    effectiveFrom: fc.integer({ min: 0, max: 100_000 }),
    price,
    discount: fc.option(fc.integer({ min: 1, max: 9_000 }), { nil: undefined }),
  }),
  { minLength: 1, maxLength: 8 },
);

function toVersions(
  list: Array<{
    scope: string;
    channel: string;
    effectiveFrom: number;
    price: { input: number; output: number; cacheRead: number };
    discount: number | undefined;
  }>,
): PriceVersion[] {
  return list.map((entry, index) => ({
    id: `pv_${index}`,
    scope: entry.scope as PriceVersion['scope'],
    ref: entry.scope === 'cost' ? entry.channel : '',
    model: entry.scope === 'cost' && entry.discount !== undefined ? '*' : MODEL,
    price: { inputPerMillion: entry.price.input, outputPerMillion: entry.price.output, cacheReadPerMillion: entry.price.cacheRead, cacheWritePerMillion: null },
    ...(entry.scope === 'cost' && entry.discount !== undefined ? { discountBps: entry.discount } : {}),
    effectiveFrom: entry.effectiveFrom,
    createdAt: index,
    source: null,
  }));
}

test('random attempt sequences over random prices and price changes: the ledger sums to the usage rows, nothing negative, earlier charges never repriced', () => {
  fc.assert(
    fc.property(versions, fc.array(request, { minLength: 1, maxLength: 12 }), price, (priceList, requests, later) => {
      const initial = toVersions(priceList);
      const snapshot = buildSnapshot({ keys: [], groups: [], channels: [], prices: [], priceVersions: initial, loadedAt: 0 });
      // A change made after every request, effective after the last one: it must not move any earlier figure.
      const changed = [
        ...initial,
        {
          ...initial[0]!,
          id: 'pv_later',
          scope: 'sell' as const,
          ref: '',
          model: MODEL,
          price: { inputPerMillion: later.input + 1, outputPerMillion: later.output + 1, cacheReadPerMillion: null, cacheWritePerMillion: null },
          effectiveFrom: 100_001,
          createdAt: 999,
        },
      ];
      delete (changed.at(-1) as Partial<PriceVersion>).discountBps;
      const after = buildSnapshot({ keys: [], groups: [], channels: [], prices: [], priceVersions: changed, loadedAt: 0 });
      let usageRowsTotal = 0;
      let chargeTotal = 0;
      requests.forEach((spec, index) => {
        const attempts: AttemptFacts[] = spec.before.map((attempt) => ({
          channelId: attempt.channel,
          status: attempt.kind === 'answered-unused' ? 200 : attempt.kind.startsWith('refused') ? Number(attempt.kind.slice(8)) : null,
          errorCode: attempt.kind === 'answered-unused' ? null : attempt.kind.startsWith('refused') ? 'upstream_error' : attempt.kind,
        }));
        if (spec.served) attempts.push({ channelId: spec.served.channel, status: 200, errorCode: spec.served.cut ? 'client_gone' : null });
        // What the usage row is charged: settled at the sell price in force at the request's time.
        const sell = sellPriceAt(snapshot, MODEL, undefined, spec.time);
        const billed = spec.served?.usage;
        const charged = billed !== undefined && sell !== undefined ? computeCostMicros(billed, sell, spec.multiplier) : 0;
        usageRowsTotal += charged;
        const facts = {
          requestId: `r${index}`,
          time: spec.time,
          model: MODEL,
          group: 'g',
          keyId: 'k',
          accountId: null,
          upstreamProtocol: 'openai-chat',
          attempts,
          committed: spec.served ? attempts.length - 1 : undefined,
          reported: billed,
          billed,
          charge: { micros: charged, version: sell?.version ?? null, payer: 'key_balance' as const, payerId: 'k' },
          estimatedInputTokens: spec.estimate,
        };
        const entries = buildLedgerEntries(facts, (channel) => costPriceAt(snapshot, MODEL, channel, spec.time));
        const again = buildLedgerEntries(facts, (channel) => costPriceAt(after, MODEL, channel, spec.time));
        assert.deepEqual(again, entries, 'a later price version changes nothing already billed');
        assert.equal(entries.attempts.length, attempts.length, 'one row per attempt');
        for (const row of entries.attempts) {
          assert.ok(Number.isSafeInteger(row.costMicros) && row.costMicros >= 0);
          for (const count of Object.values(row.usage)) assert.ok((count as number) >= 0);
          if (row.status !== null && row.status >= 400) assert.equal(row.costMicros, 0, 'a refused attempt consumed nothing');
          const unused = row.attemptNo - 1 !== facts.committed && (row.status === 200 || attempts[row.attemptNo - 1]?.errorCode === 'cancelled');
          if (unused && spec.estimate !== undefined)
            assert.equal(row.usage.inputTokens, spec.estimate, 'an attempt the upstream worked on carries its prompt, uncharged');
        }
        assert.ok(entries.attempts.filter((row) => row.charged).length <= 1, 'at most the served attempt is charged');
        for (const charge of entries.charges) {
          assert.ok(charge.sellMicros > 0);
          assert.equal(charge.sellVersion, sell?.version ?? null, 'the charge names the version it was priced at');
          chargeTotal += charge.sellMicros;
        }
      });
      assert.equal(chargeTotal, usageRowsTotal, 'charge rows sum to the usage rows');
    }),
    { numRuns: 300 },
  );
});
