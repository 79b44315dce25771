import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LedgerAttempt, LedgerCharge, LedgerRows } from '../../../src/domain/ledger-entry.ts';
import type { ConformanceContext } from './conformance-context.ts';
import { usageEntry } from './conformance-context.ts';

const DAY = 86_400_000;
const DAY_ONE = Date.UTC(2026, 0, 10);

function ledgerRows(requestId: string, time: number, channelId: string | null, rawUsage: string | null = null, rawUsageTruncated = false): LedgerRows {
  const attempt: LedgerAttempt = {
    requestId,
    attemptNo: 1,
    time,
    model: 'm',
    group: 'g',
    accountId: null,
    channelId,
    keySlot: 0,
    upstreamRequestId: 'up_1',
    status: 200,
    rawUsage,
    rawUsageTruncated,
    usage: { inputTokens: 10, outputTokens: 2 },
    costMicros: 7,
    costVersion: 'v1',
    charged: true,
    warnings: [],
  };
  const charge: LedgerCharge = {
    requestId,
    payerKind: 'key_spend',
    payerId: 'key_1',
    time,
    keyId: 'key_1',
    accountId: null,
    group: 'g',
    model: 'm',
    channelId,
    sellMicros: 11,
    sellVersion: 's1',
  };
  return { attempts: [attempt], charges: [charge] };
}

export function describeLedger(context: ConformanceContext): void {
  describe('ledger', () => {
    test("a request's ledger rows are written with its usage row, once even when the batch is retried", async () => {
      const raw = '{"prompt_tokens":10,"completion_tokens":2}';
      const entry = usageEntry({ requestId: 'req_l', time: DAY_ONE, ledger: ledgerRows('req_l', DAY_ONE, 'ch_1', raw) });
      await context.store.usage.insertMany([entry, usageEntry({ requestId: 'req_plain', time: DAY_ONE })]);
      await context.store.usage.insertMany([entry]);
      const attempts = await context.store.ledger.attemptsOf('req_l');
      assert.deepEqual(attempts, entry.ledger?.attempts, 'every field read back as written');
      assert.deepEqual(await context.store.ledger.chargesOf('req_l'), entry.ledger?.charges);
      assert.equal(attempts[0]?.rawUsage, raw);
      assert.equal(attempts[0]?.rawUsageTruncated, false);
      assert.equal(attempts[0]?.costMicros, 7);
      assert.deepEqual(
        (await context.store.ledger.chargesOf('req_l')).map((charge) => charge.sellMicros),
        [11],
      );
      assert.deepEqual(await context.store.ledger.attemptsOf('req_plain'), []);
      const cut = ledgerRows('req_cut', DAY_ONE, 'ch_1', 'x'.repeat(4096), true);
      await context.store.ledger.insertMany(cut.attempts, cut.charges);
      assert.equal((await context.store.ledger.attemptsOf('req_cut'))[0]?.rawUsageTruncated, true);
    });

    test('pruning deletes rows past the retention, keeps a channel-day no bill reconciled until the later bound', async () => {
      const rows = [
        ledgerRows('billed_old', DAY_ONE + 3_600_000, 'ch_1'),
        ledgerRows('unbilled_old', DAY_ONE + 3_600_000, 'ch_2'),
        ledgerRows('no_channel_old', DAY_ONE, null),
        ledgerRows('ancient', DAY_ONE - 200 * DAY, 'ch_2'),
        ledgerRows('recent', DAY_ONE + 30 * DAY, 'ch_1'),
      ];
      await context.store.usage.insertMany(
        rows.map((ledger) => usageEntry({ requestId: ledger.attempts[0]?.requestId as string, time: ledger.attempts[0]?.time as number, ledger })),
      );
      await context.store.ledger.saveUpstreamBills([{ channelId: 'ch_1', day: '2026-01-10', model: 'm', costMicros: 7, tokens: {}, source: 'csv' }]);
      const before = DAY_ONE + 10 * DAY;
      const deleted = await context.store.ledger.pruneBefore(before, before - 90 * DAY);
      assert.equal(deleted, 6, 'an attempt and a charge for each of three requests');
      const left = async (id: string) => (await context.store.ledger.attemptsOf(id)).length + (await context.store.ledger.chargesOf(id)).length;
      assert.deepEqual(await Promise.all(['billed_old', 'unbilled_old', 'no_channel_old', 'ancient', 'recent'].map(left)), [0, 2, 0, 0, 2]);
      assert.equal(await context.store.ledger.pruneBefore(before, before - 90 * DAY), 0, 'nothing more to prune');
      assert.equal(await context.store.ledger.pruneBefore(before, before), 2, 'past the later bound the unreconciled day goes too');
    });
  });
}
