import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.ts';
import type { LedgerAttempt, MarginRow, MarginRowView } from '../../domain/ledger-entry.ts';
import { microsToUsd } from '../../domain/money.ts';
import { BILL_FORMATS, parseUpstreamBill } from '../../ledger/parse-upstream-bill.ts';
import { DEFAULT_DRIFT_THRESHOLD, type DriftThreshold, reconcileCosts } from '../../ledger/reconcile-costs.ts';
import { instantParam } from '../../schemas/field-rules.ts';
import type { AppDeps } from '../app-deps.ts';
import { findChannelByReference } from './find-by-reference.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange } from './record-admin-change.ts';

const DAY_MS = 86_400_000;
const THRESHOLD_SETTING = 'reconciliation.threshold';
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a UTC day, YYYY-MM-DD');

export const marginQuerySchema = z.object({
  from: instantParam.optional(),
  to: instantParam.optional(),
  by: z.enum(['model', 'channel', 'group', 'account']).optional(),
  model: z.string().max(200).optional(),
  channel: z.string().max(200).optional(),
  group: z.string().max(200).optional(),
  account: z.string().max(200).optional(),
  format: z.enum(['json', 'csv', 'jsonl']).optional(),
});
export const billImportSchema = z.strictObject({
  format: z.enum(BILL_FORMATS),
  /** The export as the upstream's API returned it (a page or a list of pages), or the CSV text. */
  data: z.unknown(),
});
export const reconciliationQuerySchema = z.object({ from: day, to: day, channel: z.string().max(200).optional() });
export const driftThresholdSchema = z.strictObject({
  percent: z.number('must be a number').finite().min(0).max(100),
  minUsd: z.number('must be a number').finite().min(0).max(1_000_000),
});

/**
 * The ledger's answers: one request's attempt and charge rows, margin (revenue − cost per UTC day
 * × model, channel, group or account; JSON with totals, or CSV / JSONL of the same rows, so an
 * export's sum is the page's total), and reconciliation (import an upstream's bill per channel,
 * the drift per channel-day against the operator's threshold; drift raises `reconciliation.drift`).
 */
export function registerAdminLedgerRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  // The ledger rows ride in the usage writer's batch: written once it is flushed.
  const flush = () => deps.usageWriter.flush();
  const channelId = async (reference: string) => {
    const channel = await findChannelByReference(store, reference);
    if (!channel) throw new GatewayError('not_found', `No channel "${reference}" exists.`);
    return channel.id;
  };

  admin.get('/ledger/requests/:id', async (request) => {
    await flush();
    const id = (request.params as { id: string }).id;
    const [attempts, charges] = await Promise.all([store.ledger.attemptsOf(id), store.ledger.chargesOf(id)]);
    if (attempts.length === 0 && charges.length === 0) throw new GatewayError('not_found', `No ledger rows for request "${id}".`);
    return { attempts: attempts.map(attemptView), charges };
  });

  admin.get('/margin', async (request, reply) => {
    await flush();
    const query = parseAdminInput(marginQuerySchema, request.query);
    const to = query.to ?? deps.runtime.now();
    const from = query.from ?? to - 30 * DAY_MS;
    const channel = query.channel === undefined ? undefined : await channelId(query.channel);
    const by = query.by ?? 'model';
    const rows = await store.ledger.margin({ from, to, by, ...pick(query, ['model', 'group', 'account']), ...(channel === undefined ? {} : { channel }) });
    const views = rows.map(marginView);
    if (query.format === 'csv') return reply.type('text/csv; charset=utf-8').send(marginCsv(by, views));
    if (query.format === 'jsonl') return reply.type('application/x-ndjson').send(views.map((row) => `${JSON.stringify(row)}\n`).join(''));
    return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), by, data: views, totals: marginView(totalOf(rows)) };
  });

  admin.post('/reconciliation/channels/:channel/bills', async (request, reply) => {
    const id = await channelId((request.params as { channel: string }).channel);
    const input = parseAdminInput(billImportSchema, request.body);
    let bills: ReturnType<typeof parseUpstreamBill>;
    try {
      bills = parseUpstreamBill(input.format, input.data, id);
    } catch (error) {
      throw new GatewayError('invalid_request', `data: ${(error as Error).message}`, { param: 'data' });
    }
    if (bills.length === 0) throw new GatewayError('invalid_request', 'data: the export has no lines; nothing was imported.', { param: 'data' });
    await store.ledger.saveUpstreamBills(bills);
    await recordAdminChange(deps, request, {
      action: 'reconciliation.import',
      targetKind: 'channel',
      targetId: id,
      targetName: id,
      before: null,
      after: { format: input.format, lines: bills.length },
    });
    const days = bills.map((bill) => bill.day).sort();
    const report = await reconcile(days[0] as string, days.at(-1) as string, id);
    return reply.code(201).send({ imported: bills.length, ...report });
  });
  admin.get('/reconciliation', async (request) => {
    const query = parseAdminInput(reconciliationQuerySchema, request.query);
    return reconcile(query.from, query.to, query.channel === undefined ? undefined : await channelId(query.channel), false);
  });
  admin.get('/reconciliation/threshold', async () => thresholdView(await threshold()));
  admin.post('/reconciliation/threshold', async (request) => {
    const input = parseAdminInput(driftThresholdSchema, request.body);
    const value: DriftThreshold = { percent: input.percent, minMicros: Math.round(input.minUsd * 1_000_000) };
    await store.settings.set(THRESHOLD_SETTING, JSON.stringify(value));
    return thresholdView(value);
  });

  const threshold = async (): Promise<DriftThreshold> => {
    const stored = await store.settings.get(THRESHOLD_SETTING);
    return stored === undefined ? DEFAULT_DRIFT_THRESHOLD : (JSON.parse(stored) as DriftThreshold);
  };
  /** The drift of the days in [from, to]; an import (not a mere look) emits the drifting days as events. */
  const reconcile = async (from: string, to: string, channel: string | undefined, emit = true) => {
    await flush();
    const limit = await threshold();
    const start = Date.parse(`${from}T00:00:00Z`);
    const end = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
    const [ledger, bills] = await Promise.all([store.ledger.costByChannelDay(start, end, channel), store.ledger.upstreamBills(from, to, channel)]);
    const days = reconcileCosts(ledger, bills, limit).map((entry) => ({
      ...entry,
      ledgerUsd: microsToUsd(entry.ledgerMicros),
      upstreamUsd: microsToUsd(entry.upstreamMicros),
      driftUsd: microsToUsd(entry.driftMicros),
    }));
    const events = emit
      ? (deps.reconciliation?.emitDrift(days, {
          thresholdPercent: limit.percent,
          at: deps.runtime.now(),
          channelName: (id) => deps.snapshot.current.channels.get(id)?.name ?? null,
        }) ?? [])
      : [];
    return { threshold: thresholdView(limit), data: days, events };
  };
}

function thresholdView(value: DriftThreshold) {
  return { percent: value.percent, minUsd: microsToUsd(value.minMicros) };
}

function marginView(row: MarginRow): MarginRowView {
  return { ...row, revenueUsd: microsToUsd(row.revenueMicros), costUsd: microsToUsd(row.costMicros), marginUsd: microsToUsd(row.marginMicros) };
}

function totalOf(rows: MarginRow[]): MarginRow {
  const total: MarginRow = { day: 'total', key: null, requests: 0, revenueMicros: 0, costMicros: 0, marginMicros: 0 };
  for (const row of rows) {
    total.requests += row.requests;
    total.revenueMicros += row.revenueMicros;
    total.costMicros += row.costMicros;
    total.marginMicros += row.marginMicros;
  }
  return total;
}

/** The same rows as the JSON answer, one a line; money in micro-USD (exact) and USD. */
function marginCsv(by: string, rows: ReturnType<typeof marginView>[]): string {
  const quote = (value: unknown) => (/[",\n]/.test(String(value ?? '')) ? `"${String(value).replace(/"/g, '""')}"` : String(value ?? ''));
  const header = ['day', by, 'requests', 'revenue_micros', 'cost_micros', 'margin_micros', 'revenue_usd', 'cost_usd', 'margin_usd'];
  const lines = rows.map((row) =>
    [row.day, row.key, row.requests, row.revenueMicros, row.costMicros, row.marginMicros, row.revenueUsd, row.costUsd, row.marginUsd].map(quote).join(','),
  );
  return `${[header.join(','), ...lines].join('\n')}\n`;
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}

/** An attempt as the admin API shows it: the upstream's usage object as JSON, or (cut at 4 KB) the text kept. */
function attemptView(attempt: LedgerAttempt): Omit<LedgerAttempt, 'rawUsage'> & { rawUsage: unknown } {
  if (attempt.rawUsage === null || attempt.rawUsageTruncated) return attempt;
  try {
    return { ...attempt, rawUsage: JSON.parse(attempt.rawUsage) as unknown };
  } catch {
    return attempt;
  }
}
