import { DASH, dateTime, usd } from './format.ts';
import { type AdminPlanView as Plan, type AdminRedemptionCodeView as RedemptionCodeRecord, type AdminSubscriptionView as Subscription } from '../../../src/domain/account-admin-api.ts';
import { type QuotaWindow } from '../../../src/domain/plan.ts';

/** A plan's quotas as a form or an answer holds them (USD per window; null: none). */
export type Quota = Partial<Record<QuotaWindow, number | null>>;

/** A name or id, or the record itself: the contract accepts either and answers may carry either. */
export type Ref = string | { id?: string; name?: string } | null | undefined;
import { t } from '../i18n/i18n.ts';

/** Read at render time (getters), so a window's name follows the language chosen. */
export const WINDOW_LABEL: Record<QuotaWindow, string> = {
  get daily() {
    return t('window.daily');
  },
  get weekly() {
    return t('window.weekly');
  },
  get monthly() {
    return t('window.monthly');
  },
  get total() {
    return t('window.total');
  },
};
const PER_WINDOW = { daily: 'window.perDaily', weekly: 'window.perWeekly', monthly: 'window.perMonthly', total: 'window.perTotal' } as const;

/** The id a reference carries (a bare string is taken as an id or name, as the API accepts both). */
export function refId(ref: Ref): string {
  if (ref === null || ref === undefined) return '';
  return typeof ref === 'string' ? ref : (ref.id ?? ref.name ?? '');
}

/** The human name of a reference, looked up in `byId` when the reference is a bare id. */
export function refName(ref: Ref, byId?: Map<string, { name: string }>): string {
  if (ref === null || ref === undefined) return DASH;
  if (typeof ref === 'string') return byId?.get(ref)?.name ?? ref;
  return ref.name ?? (ref.id ? (byId?.get(ref.id)?.name ?? ref.id) : DASH);
}

export function indexById<T extends { id: string }>(records: T[]): Map<string, T> {
  return new Map(records.map((record) => [record.id, record]));
}

/** The quota of a window for this subscription: its own copy, else its plan's. */
export function quotaOf(subscription: Subscription, plan: Plan | undefined, window: QuotaWindow): number | null {
  const own = subscription.quota?.[window];
  if (own !== undefined && own !== null) return own;
  const fromPlan = plan?.quota?.[window];
  return fromPlan === undefined || fromPlan === null ? null : fromPlan;
}

export function quotaText(quota: Quota): string {
  const parts = (['daily', 'weekly', 'monthly', 'total'] as const)
    .filter((window) => quota[window] !== undefined && quota[window] !== null)
    .map((window) => t(PER_WINDOW[window], { amount: usd(quota[window]) }));
  return parts.length > 0 ? parts.join(t('common.listSeparator')) : t('window.unlimited');
}

/** The highest share of any quota used, 0..1+, or null when the subscription has no quota. */
export function highestUse(subscription: Subscription, plan: Plan | undefined): { window: QuotaWindow; share: number } | null {
  let best: { window: QuotaWindow; share: number } | null = null;
  for (const window of ['daily', 'weekly', 'monthly', 'total'] as const) {
    const quota = quotaOf(subscription, plan, window);
    if (quota === null || quota <= 0) continue;
    const share = (subscription.usage?.[window] ?? 0) / quota;
    if (!best || share > best.share) best = { window, share };
  }
  return best;
}

/** A code's state in words: unused, used by whom and when, or expired. */
export function codeState(code: RedemptionCodeRecord, users?: Map<string, { name: string }>): { state: RedemptionCodeRecord['state']; detail: string } {
  if (code.state === 'used' || code.usedAt) {
    // The admin API names the redeemer as {user, key}: the account, or the key for a key without one.
    const by = code.usedBy;
    const who = by?.user ? refName(by.user, users) : by?.key ? t('window.codeKey', { key: by.key }) : DASH;
    return { state: 'used', detail: `${t('window.codeUsedBy', { who })}${code.usedAt ? t('window.codeUsedAt', { time: dateTime(code.usedAt) }) : ''}` };
  }
  if (code.state === 'expired' || (code.expiresAt && Date.parse(code.expiresAt) <= Date.now())) return { state: 'expired', detail: code.expiresAt ? t('window.codeSince', { time: dateTime(code.expiresAt) }) : '' };
  return { state: code.state, detail: code.expiresAt ? t('window.codeUntil', { time: dateTime(code.expiresAt) }) : t('window.codeNoExpiry') };
}

/** Days and hours until a time, for "expires in". */
export function timeUntil(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return DASH;
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return iso;
  if (ms <= 0) return t('window.passed');
  const hours = Math.round(ms / 3_600_000);
  if (hours < 48) return t('window.inHours', { count: hours });
  return t('window.inDays', { count: Math.round(hours / 24) });
}

/** Money field text → a number, or undefined when empty; NaN stays NaN for the caller to refuse. */
export function moneyInput(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

export function csvEscape(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
