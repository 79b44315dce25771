import type { AdminUsageSummary } from './admin-api-types.ts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { UsageBreakdownRow, UsageTotals } from '../../store/usage-queries.ts';
import type { AppDeps } from '../app-deps.ts';
import { microsToUsd } from '../../domain/money.ts';
import { parseAdminInput } from '../parse-admin-input.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The console's chart ranges: how far back, and how wide each point is. */
const RANGES = {
  '1h': { span: HOUR, bucketMs: MINUTE },
  '24h': { span: DAY, bucketMs: HOUR },
  '7d': { span: 7 * DAY, bucketMs: 6 * HOUR },
  '30d': { span: 30 * DAY, bucketMs: DAY },
} as const;

export const summaryQuerySchema = z.object({
  range: z.enum(Object.keys(RANGES) as [keyof typeof RANGES], { error: 'must be one of 1h, 24h, 7d, 30d' }).optional(),
  key: z.string().min(1).optional(),
  group: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
});

/**
 * Read-only views the console draws: usage over time with latency percentiles, and the top
 * models and keys. Same admin token as the rest of `/api/admin`.
 */
export function registerAdminInsightRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.register(
    async (admin) => {
      admin.get('/insight/summary', async (request) => {
        const query = parseAdminInput(summaryQuerySchema, request.query);
        const range = query.range ?? '24h';
        const { span, bucketMs } = RANGES[range];
        // Requests still in the writer's batch belong in the chart the operator is looking at.
        await deps.usageWriter.flush();
        const to = Math.floor(deps.runtime.now() / bucketMs) * bucketMs + bucketMs;
        const summary = await (deps.store.usageReads ?? deps.store.usage).summarize({
          from: to - span,
          to,
          bucketMs,
          ...(query.key === undefined ? {} : { keyId: query.key }),
          ...(query.group === undefined ? {} : { group: query.group }),
          ...(query.model === undefined ? {} : { model: query.model }),
        });
        return {
          range,
          bucketMs,
          from: new Date(to - span).toISOString(),
          to: new Date(to).toISOString(),
          totals: totalsView(summary.totals),
          series: summary.series.map((point) => ({ ...totalsView(point), start: new Date(point.start).toISOString() })),
          topModels: summary.byModel.map(breakdownView),
          topKeys: summary.byKey.map(breakdownView),
        } satisfies AdminUsageSummary;
      });
    },
    { prefix: '/api/admin' },
  );
}

function totalsView(totals: UsageTotals) {
  const { costMicros, ...rest } = totals;
  return { ...rest, cost: microsToUsd(costMicros) };
}

function breakdownView(row: UsageBreakdownRow) {
  const { costMicros, ...rest } = row;
  return { ...rest, cost: microsToUsd(costMicros) };
}
