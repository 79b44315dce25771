import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeKeyFunds, type KeyFunds } from '../../billing/describe-key-funds.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { AppDeps } from '../app-deps.ts';
import { microsToUsd } from '../../domain/money.ts';
import { authenticateRequest } from '../authenticate-request.ts';

const usd = microsToUsd;
/** What new-api answers for a key without a limit; tools compute "left" as hard limit minus usage. */
const UNLIMITED_HARD_LIMIT_USD = 100_000_000;
const DAY_MS = 86_400_000;
/** OpenAI's legacy usage endpoint allowed at most 100 days per query; so do we. */
const MAX_USAGE_DAYS = 100;

/**
 * The balance endpoints key holders' tools already read, each answering only for the calling
 * key (its own balance, its account's wallet or its account's subscription, see describeKeyFunds):
 * OpenRouter `GET /api/v1/key` (+ the older `/api/v1/auth/key`) and `GET /api/v1/credits`; the
 * OpenAI-legacy `GET /v1/dashboard/billing/subscription` and `/usage` (also without `/v1`, as
 * new-api serves them for NextChat and others); sub2api's `GET /v1/usage` (cc-switch).
 * The key is taken as Bearer or `x-api-key`, under the same rules as a generation (disabled,
 * expired, IP allow-list); errors are in the OpenAI shape these clients read.
 */
export function registerKeyBalanceRoutes(app: FastifyInstance, deps: AppDeps): void {
  const funds = async (request: FastifyRequest): Promise<KeyFunds> => {
    const caller = authenticateRequest(deps, request, 'anthropic');
    await deps.usageWriter.flush();
    return describeKeyFunds(
      {
        snapshot: deps.snapshot.current,
        balances: deps.access.balances,
        wallets: deps.access.wallets,
        subscriptions: deps.access.subscriptions,
        readSpent: (keyId) => deps.access.charges.withPending(keyId, async () => (await deps.store.keys.get(keyId))?.spentMicros),
        aggregateUsage: (query) => deps.store.usage.aggregate(query),
        now: deps.runtime.now(),
      },
      caller,
    );
  };

  const openRouterKey = async (request: FastifyRequest) => {
    const f = await funds(request);
    const limit = openRouterLimit(f);
    return {
      data: {
        label: f.label,
        limit: limit.limitMicros === null ? null : usd(limit.limitMicros),
        limit_reset: limit.reset,
        limit_remaining: f.remainingMicros === null ? null : usd(f.remainingMicros),
        usage: usd(f.usageMicros),
        usage_daily: usd(f.periodUsageMicros.daily),
        usage_weekly: usd(f.periodUsageMicros.weekly),
        usage_monthly: usd(f.periodUsageMicros.monthly),
        byok_usage: 0,
        byok_usage_daily: 0,
        byok_usage_weekly: 0,
        byok_usage_monthly: 0,
        include_byok_in_limit: false,
        is_free_tier: false,
        is_management_key: false,
        is_provisioning_key: false,
        expires_at: f.expiresAt === null ? null : new Date(f.expiresAt).toISOString(),
      },
    };
  };
  app.get('/api/v1/key', openRouterKey);
  app.get('/api/v1/auth/key', openRouterKey);

  app.get('/api/v1/credits', async (request) => {
    const f = await funds(request);
    // Credited so far = what is left + what was spent; a key without a limit has no credit total.
    return { data: { total_credits: f.remainingMicros === null ? null : usd(f.remainingMicros + f.usageMicros), total_usage: usd(f.usageMicros) } };
  });

  const billingSubscription = async (request: FastifyRequest) => {
    const f = await funds(request);
    const hard = f.remainingMicros === null ? UNLIMITED_HARD_LIMIT_USD : usd(f.remainingMicros + f.usageMicros);
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: hard,
      hard_limit_usd: hard,
      system_hard_limit_usd: hard,
      // Epoch seconds; 0 = no end, as new-api answers.
      access_until: Math.floor((f.subscription?.expiresAt ?? f.expiresAt ?? 0) / 1000),
      plan: { title: f.planName, id: f.paysFrom },
    };
  };
  app.get('/v1/dashboard/billing/subscription', billingSubscription);
  app.get('/dashboard/billing/subscription', billingSubscription);

  const billingUsage = async (request: FastifyRequest) => {
    const caller = authenticateRequest(deps, request, 'anthropic');
    const { from, to } = usageRange(request.query as Record<string, unknown>, deps.runtime.now());
    await deps.usageWriter.flush();
    const rows = await deps.store.usage.aggregate({ from, to, by: 'model', keyId: caller.key.id });
    const byDay = new Map<string, Array<{ name: string; cost: number }>>();
    let totalMicros = 0;
    for (const row of rows) {
      totalMicros += row.costMicros;
      const items = byDay.get(row.day) ?? [];
      items.push({ name: row.subject ?? 'unknown', cost: cents(row.costMicros) });
      byDay.set(row.day, items);
    }
    return {
      object: 'list',
      // Cents, as OpenAI's legacy endpoint answered (NextChat divides by 100).
      total_usage: cents(totalMicros),
      daily_costs: [...byDay.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([day, line_items]) => ({ timestamp: Date.parse(`${day}T00:00:00Z`) / 1000, line_items })),
    };
  };
  app.get('/v1/dashboard/billing/usage', billingUsage);
  app.get('/dashboard/billing/usage', billingUsage);

  app.get('/v1/usage', async (request) => {
    const f = await funds(request);
    const windows = f.subscription?.windows ?? [];
    const subscription =
      f.subscription === undefined
        ? null
        : {
            plan: f.subscription.planName,
            expires_at: new Date(f.subscription.expiresAt).toISOString(),
            ...Object.fromEntries(
              windows.flatMap((window) => [
                [`${window.window}_usage_usd`, usd(window.usedMicros)],
                [`${window.window}_limit_usd`, window.quotaMicros === null ? null : usd(window.quotaMicros)],
                [
                  `${window.window}_used_percent`,
                  window.quotaMicros === null || window.quotaMicros === 0 ? null : round2((window.usedMicros / window.quotaMicros) * 100),
                ],
                [`${window.window}_resets_at`, window.resetsAt === null ? null : new Date(window.resetsAt).toISOString()],
              ]),
            ),
          };
    return {
      isValid: f.paysFrom !== 'subscription' || f.subscription !== undefined,
      mode: f.paysFrom,
      planName: f.planName,
      remaining: f.remainingMicros === null ? null : usd(f.remainingMicros),
      unit: 'USD',
      usage: {
        today: usd(f.periodUsageMicros.daily),
        week: usd(f.periodUsageMicros.weekly),
        month: usd(f.periodUsageMicros.monthly),
        total: usd(f.usageMicros),
      },
      subscription,
    };
  });
}

/** OpenRouter's `limit`: the key's credit (left + spent), or a subscription's tightest window. */
function openRouterLimit(f: KeyFunds): { limitMicros: number | null; reset: string | null } {
  if (f.remainingMicros === null) return { limitMicros: null, reset: null };
  const limited = (f.subscription?.windows ?? []).filter((window) => window.quotaMicros !== null);
  if (limited.length > 0) {
    const tightest = limited.reduce((a, b) => ((a.quotaMicros ?? 0) - a.usedMicros <= (b.quotaMicros ?? 0) - b.usedMicros ? a : b));
    return { limitMicros: tightest.quotaMicros, reset: tightest.window === 'total' ? null : tightest.window };
  }
  return { limitMicros: f.remainingMicros + f.usageMicros, reset: null };
}

/** `start_date` / `end_date` (YYYY-MM-DD, end exclusive as OpenAI's was); default: this UTC month. */
function usageRange(query: Record<string, unknown>, now: number): { from: number; to: number } {
  const date = new Date(now);
  const from = parseDay(query.start_date, 'start_date') ?? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const to = parseDay(query.end_date, 'end_date') ?? Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  if (to <= from) throw invalidRequest('end_date must be after start_date.', 'end_date');
  if (to - from > MAX_USAGE_DAYS * DAY_MS) throw invalidRequest(`Query at most ${MAX_USAGE_DAYS} days of usage at a time.`, 'end_date');
  return { from, to };
}

function parseDay(value: unknown, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(time)) throw invalidRequest(`${field} must be a date written YYYY-MM-DD.`, field);
  return time;
}

function cents(micros: number): number {
  return micros / 10_000;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
