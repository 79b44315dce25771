import { ApiError, call, isMissingEndpoint } from './api.ts';
import { t } from '../i18n/i18n.ts';
import { count, dateTime, usd } from './format.ts';

/** What a key holder may see about their own key. */
export interface KeyHolderView {
  /** `me`: from /api/me; `models`: /api/me is missing, only the model list could be read. */
  source: 'me' | 'models';
  group: string | null;
  models: string[];
  name: string | null;
  balance: number | null | undefined;
  spent: number | undefined;
  expiresAt: string | null | undefined;
  enabled: boolean | undefined;
  /** Each limit in words; empty = none; undefined = not reported. */
  limits: string[] | undefined;
  /** Recent usage rows or totals, as /api/me gives them. */
  usage: unknown;
  /** Why the key cannot be used right now (expired, out of balance…), in the gateway's words. */
  problem: string | null;
  altPrefix: string;
}

/**
 * Reads the key's own view. /api/me answers an empty key; an expired or disabled key, or one
 * used from outside its IP allow-list, is refused with a 403 that says why, which becomes the
 * view's problem. On a gateway without /api/me the model list stands in (it refuses such keys
 * the same way).
 */
export async function loadKeyHolderView(key: string): Promise<KeyHolderView> {
  try {
    const me = await call<Record<string, unknown>>('/api/me', { bearer: key });
    return fromMe(me);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return { ...empty('me'), problem: error.message };
    if (!isMissingEndpoint(error)) throw error;
  }
  try {
    const list = await call<{ data?: Array<{ id?: string }> }>('/v1/models', { bearer: key });
    return { ...empty('models'), models: (list.data ?? []).map((model) => model.id ?? '').filter(Boolean) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return { ...empty('models'), problem: error.message };
    throw error;
  }
}

function fromMe(me: Record<string, unknown>): KeyHolderView {
  const key = (isObject(me.key) ? me.key : me) as Record<string, unknown>;
  const rawModels = me.models ?? key.models;
  const models = Array.isArray(rawModels)
    ? rawModels.map((model) => (typeof model === 'string' ? model : String((model as { id?: unknown; name?: unknown }).id ?? (model as { name?: unknown }).name ?? ''))).filter(Boolean)
    : [];
  const groupValue = me.group ?? key.group;
  const group = typeof groupValue === 'string' ? groupValue : isObject(groupValue) ? String(groupValue.name ?? '') : null;
  const balance = pick(me.balance, key.balance);
  const status = pick(key.status, me.status);
  const problems: string[] = [];
  if (typeof status === 'string' && status !== 'active' && status !== 'ok') problems.push(t('keyHolder.keyStatus', { status }));
  if (typeof balance === 'number' && balance <= 0) problems.push(t('keyHolder.noBalance'));
  const ip = isObject(me.ip) ? me.ip : undefined;
  if (ip && ip.allowed === false) problems.push(t('keyHolder.outsideIps', { ip: String(ip.seen) }));
  const expiresAt = pick(key.expiresAt, me.expiresAt);
  const spent = pick(me.spent, key.spent);
  const limits = pick(me.limits, key.limits);
  return {
    source: 'me',
    group,
    models,
    name: typeof key.name === 'string' ? key.name : null,
    balance: typeof balance === 'number' || balance === null ? balance : undefined,
    spent: typeof spent === 'number' ? spent : undefined,
    expiresAt: typeof expiresAt === 'string' || expiresAt === null ? expiresAt : undefined,
    enabled: typeof key.enabled === 'boolean' ? key.enabled : status === undefined ? undefined : status !== 'disabled',
    limits: isObject(limits) ? describeLimits(limits) : undefined,
    usage: me.recentUsage ?? me.usage,
    problem: problems.length > 0 ? `${problems.join('; ')}.` : null,
    altPrefix: typeof me.altPrefix === 'string' ? me.altPrefix : 'antigravity',
  };
}

/** Catalogue keys of the limits /api/me reports; another name is shown as the gateway spells it. */
const LIMIT_NAMES: Record<string, string> = {
  requestsPerMinute: 'keyHolder.requestsPerMinute',
  tokensPerMinute: 'keyHolder.tokensPerMinute',
  concurrentRequests: 'keyHolder.concurrentRequests',
};
const PERIODS = new Set(['daily', 'weekly', 'monthly', 'total']);

/** Limits in words, in the reader's language; unset ones (null) are left out. */
function describeLimits(limits: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value === 'number') lines.push(t('keyHolder.limit', { name: LIMIT_NAMES[name] ? t(LIMIT_NAMES[name]) : name, value: count(value) }));
    if (Array.isArray(value)) {
      for (const window of value) {
        if (!isObject(window)) continue;
        const period = String(window.period);
        const values = { period: PERIODS.has(period) ? t(`windowName.${period}`) : period, spent: usd(Number(window.spent)), limit: usd(Number(window.limit)) };
        lines.push(
          typeof window.resetsAt === 'string' ? t('keyHolder.spendResets', { ...values, date: dateTime(window.resetsAt) }) : t('keyHolder.spend', values),
        );
      }
    }
  }
  return lines;
}

function pick(first: unknown, second: unknown): unknown {
  return first === undefined ? second : first;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function empty(source: KeyHolderView['source']): KeyHolderView {
  return {
    source,
    group: null,
    models: [],
    name: null,
    balance: undefined,
    spent: undefined,
    expiresAt: undefined,
    enabled: undefined,
    limits: undefined,
    usage: undefined,
    problem: null,
    altPrefix: 'antigravity',
  };
}
