import type { PortalUsage } from '../domain/account-portal-api.ts';
import type { Store } from '../store/store.ts';
import { microsToUsd } from '../domain/money.ts';

const DAY = 86_400_000;
const RECENT_ROWS = 50;

/**
 * An account's usage over the last `days` UTC days, across all its keys (revoked ones too, as
 * the log keeps the account on each row): per day, per model, and the most recent requests.
 * The rows are the operator's log rows minus what is the operator's business: channels,
 * upstream model names, attempts, client addresses.
 */
/** What the usage view reads: the clock, the log and its writer (flushed first, so the last request is in). */
export interface AccountUsageDeps {
  runtime: { now(): number };
  usageWriter: { flush(): Promise<void> };
  store: Pick<Store, 'usage'>;
}

export async function accountUsage(deps: AccountUsageDeps, userId: string, days: number): Promise<PortalUsage> {
  const now = deps.runtime.now();
  const from = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
  await deps.usageWriter.flush();
  const [rows, recent] = await Promise.all([
    deps.store.usage.aggregate({ from, to: now + 1, by: 'model', userId }),
    deps.store.usage.query({ userId, from, limit: RECENT_ROWS }),
  ]);
  const byDay = new Map<string, { day: string; requests: number; errors: number; inputTokens: number; outputTokens: number; costMicros: number }>();
  for (let time = from; time <= now; time += DAY) {
    const day = new Date(time).toISOString().slice(0, 10);
    byDay.set(day, { day, requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, costMicros: 0 });
  }
  const byModel = new Map<
    string | null,
    { model: string | null; requests: number; errors: number; inputTokens: number; outputTokens: number; costMicros: number }
  >();
  for (const row of rows) {
    const day = byDay.get(row.day);
    if (day) add(day, row);
    const model = byModel.get(row.subject) ?? { model: row.subject, requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, costMicros: 0 };
    add(model, row);
    byModel.set(row.subject, model);
  }
  const money = <T extends { costMicros: number }>({ costMicros, ...rest }: T) => ({ ...rest, cost: microsToUsd(costMicros) });
  return {
    days,
    byDay: [...byDay.values()].map(money),
    byModel: [...byModel.values()].sort((a, b) => b.requests - a.requests).map(money),
    recent: recent.map((row) => ({
      requestId: row.requestId,
      time: new Date(row.time).toISOString(),
      keyName: row.keyName,
      model: row.model,
      status: row.status,
      errorCode: row.errorCode,
      errorMessage: row.errorMessage,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      cost: microsToUsd(row.costMicros),
      stream: row.stream,
      latencyMs: row.latencyMs,
      paidBy: row.paidBy ?? null,
    })),
  };
}

function add(
  into: { requests: number; errors: number; inputTokens: number; outputTokens: number; costMicros: number },
  row: { requests: number; errors: number; inputTokens: number; outputTokens: number; costMicros: number },
): void {
  into.requests += row.requests;
  into.errors += row.errors;
  into.inputTokens += row.inputTokens;
  into.outputTokens += row.outputTokens;
  into.costMicros += row.costMicros;
}
