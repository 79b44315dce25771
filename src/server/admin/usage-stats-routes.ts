import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { AppDeps } from '../app-deps.ts';
import { microsToUsd } from '../../domain/money.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { instantParam } from '../../schemas/field-rules.ts';

const DAY = 86_400_000;
const MAX_DAYS = 366;

export const usageQuerySchema = z.object({
  by: z.enum(['key', 'model', 'payer']).optional(),
  from: instantParam.optional(),
  to: instantParam.optional(),
  key: z.string().optional(),
});

/**
 * `GET /api/admin/usage?from=&to=&by=key|model|payer[&key=]`: totals per UTC day × key, model or
 * what paid (subscription, wallet, key balance: for reconciliation) for the console's charts. Defaults to the last 30 days by key; money in USD and micro-USD.
 */
export function registerUsageStatsRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/api/admin/usage', async (request) => {
    const query = parseAdminInput(usageQuerySchema, request.query);
    await deps.usageWriter.flush();
    const now = deps.runtime.now();
    const to = query.to === undefined ? now + 1 : query.to;
    const from = query.from === undefined ? to - 30 * DAY : query.from;
    if (!(from < to) || to - from > MAX_DAYS * DAY) {
      throw invalidRequest(`from must be before to, and at most ${MAX_DAYS} days apart.`, 'from');
    }
    const by = query.by ?? 'key';
    const rows = await (deps.store.usageReads ?? deps.store.usage).aggregate({ from, to, by, ...(query.key === undefined ? {} : { keyId: query.key }) });
    return {
      by,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      data: rows.map((row) => ({ ...row, cost: microsToUsd(row.costMicros) })),
    };
  });
}
