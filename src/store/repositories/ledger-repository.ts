import { sql } from 'kysely';
import type { CostByChannelDay, MarginQuery, MarginRow } from '../../domain/ledger-entry.ts';
import { insertLedgerRows, toAttempt, toCharge } from './ledger-rows.ts';
import { pruneLedger } from './prune-ledger.ts';
import type { LedgerRepository } from '../ledger-repository-port.ts';
import type { StoreContext } from '../store-context.ts';

const DAY_MS = 86_400_000;
const DIMENSION_COLUMN = { model: 'model', channel: 'channel_id', group: 'group_name', account: 'account_id' } as const;

export function createLedgerRepository(context: StoreContext): LedgerRepository {
  const { db } = context;
  return {
    async insertMany(attempts, charges) {
      if (attempts.length === 0 && charges.length === 0) return;
      await db.transaction().execute((trx) => insertLedgerRows(trx, attempts, charges));
    },
    async attemptsOf(requestId) {
      const rows = await db.selectFrom('ledger_attempts').selectAll().where('request_id', '=', requestId).orderBy('attempt_no').execute();
      return rows.map(toAttempt);
    },
    async chargesOf(requestId) {
      const rows = await db.selectFrom('ledger_charges').selectAll().where('request_id', '=', requestId).orderBy('payer_kind').execute();
      return rows.map(toCharge);
    },
    margin: (query) => queryMargin(context, query),
    pruneBefore: (before, unreconciledBefore) => pruneLedger(context, before, unreconciledBefore),
    async costByChannelDay(from, to, channelId) {
      let query = db
        .selectFrom('ledger_attempts')
        .select([sql<number>`time / ${sql.lit(DAY_MS)}`.as('d'), 'channel_id', sql<number>`sum(cost_micros)`.as('cost')])
        .where('time', '>=', from)
        .where('time', '<', to)
        .where('channel_id', 'is not', null);
      if (channelId !== undefined) query = query.where('channel_id', '=', channelId);
      const rows = await query.groupBy([sql`time / ${sql.lit(DAY_MS)}`, 'channel_id']).execute();
      return rows.map((row): CostByChannelDay => ({ channelId: String(row.channel_id), day: dayOf(Number(row.d)), costMicros: Number(row.cost) }));
    },
    async saveUpstreamBills(bills) {
      if (bills.length === 0) return;
      const importedAt = context.now();
      await db.transaction().execute(async (trx) => {
        for (const bill of bills) {
          const row = {
            channel_id: bill.channelId,
            day: bill.day,
            model: bill.model,
            cost_micros: bill.costMicros,
            tokens: JSON.stringify(bill.tokens),
            source: bill.source,
            imported_at: importedAt,
          };
          await trx
            .insertInto('upstream_bills')
            .values(row)
            .onConflict((conflict) =>
              conflict
                .columns(['channel_id', 'day', 'model'])
                .doUpdateSet({ cost_micros: row.cost_micros, tokens: row.tokens, source: row.source, imported_at: importedAt }),
            )
            .execute();
        }
      });
    },
    async upstreamBills(from, to, channelId) {
      let query = db.selectFrom('upstream_bills').selectAll().where('day', '>=', from).where('day', '<=', to);
      if (channelId !== undefined) query = query.where('channel_id', '=', channelId);
      const rows = await query.orderBy('day').orderBy('channel_id').orderBy('model').execute();
      return rows.map((row) => ({
        channelId: row.channel_id,
        day: row.day,
        model: row.model,
        costMicros: Number(row.cost_micros),
        tokens: JSON.parse(row.tokens) as Record<string, number>,
        source: row.source,
      }));
    },
  };
}

/** Revenue from the charge rows and cost from the attempt rows, each summed per day × dimension, then joined. */
async function queryMargin({ db }: StoreContext, query: MarginQuery): Promise<MarginRow[]> {
  const column = DIMENSION_COLUMN[query.by];
  const filters = (['model', 'channel', 'group', 'account'] as const).flatMap((name) =>
    query[name] === undefined ? [] : [[DIMENSION_COLUMN[name], query[name] as string] as const],
  );
  let revenue = db
    .selectFrom('ledger_charges')
    .select([sql<number>`time / ${sql.lit(DAY_MS)}`.as('d'), sql<string | null>`${sql.ref(column)}`.as('k'), sql<number>`sum(sell_micros)`.as('amount')])
    .where('time', '>=', query.from)
    .where('time', '<', query.to);
  let cost = db
    .selectFrom('ledger_attempts')
    .select([
      sql<number>`time / ${sql.lit(DAY_MS)}`.as('d'),
      sql<string | null>`${sql.ref(column)}`.as('k'),
      sql<number>`sum(cost_micros)`.as('amount'),
      sql<number>`count(distinct request_id)`.as('requests'),
    ])
    .where('time', '>=', query.from)
    .where('time', '<', query.to);
  for (const [name, value] of filters) {
    revenue = revenue.where(name, '=', value);
    cost = cost.where(name, '=', value);
  }
  const [revenueRows, costRows] = await Promise.all([
    revenue.groupBy([sql`time / ${sql.lit(DAY_MS)}`, sql.ref(column)]).execute(),
    cost.groupBy([sql`time / ${sql.lit(DAY_MS)}`, sql.ref(column)]).execute(),
  ]);
  const rows = new Map<string, MarginRow>();
  const rowOf = (d: unknown, key: string | null) => {
    const id = `${Number(d)}\u0000${key ?? ''}`;
    let row = rows.get(id);
    if (row === undefined) {
      row = { day: dayOf(Number(d)), key, requests: 0, revenueMicros: 0, costMicros: 0, marginMicros: 0 };
      rows.set(id, row);
    }
    return row;
  };
  for (const entry of revenueRows) rowOf(entry.d, entry.k).revenueMicros += Number(entry.amount);
  for (const entry of costRows) {
    const row = rowOf(entry.d, entry.k);
    row.costMicros += Number(entry.amount);
    row.requests += Number(entry.requests);
  }
  for (const row of rows.values()) row.marginMicros = row.revenueMicros - row.costMicros;
  return [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || (a.key ?? '').localeCompare(b.key ?? ''));
}

function dayOf(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}
