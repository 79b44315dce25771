import type { PortalSubscription } from './account-portal-api.ts';
import type { QuotaWindow } from './plan.ts';
import type { RedemptionCodeState } from './redemption-code.ts';

/**
 * The accounts admin API's answers (issue 15, under /api/admin): what `accounts/account-views.ts`
 * returns and what the console reads, declared once here and imported by both. Money in USD,
 * times as ISO strings (null when unset).
 */

/** A user: never the password or its hash; the live wallet as `balance`. */
export interface AdminUserView {
  id: string;
  name: string;
  email: string | null;
  hasPassword: boolean;
  balance: number;
  /** The same live figure as `balance`, under the name keys use for theirs (a key's `balance` is the database's settled figure). */
  available: number;
  spent: number;
  enabled: boolean;
  createdAt: string | null;
  updatedAt: string | null;
}

export interface AdminPlanView {
  id: string;
  name: string;
  group: string;
  durationDays: number;
  /** USD per window; a window without a quota is absent. */
  quota: Partial<Record<QuotaWindow, number>>;
  price: number | null;
  description: string;
  createdAt: string | null;
  updatedAt: string | null;
}

/** The portal shows its own subscriptions in the same shape. */
export type AdminSubscriptionView = PortalSubscription;

/** A redemption code: never the code itself (only its hash is stored). */
export interface AdminRedemptionCodeView {
  id: string;
  kind: 'balance' | 'subscription';
  amount: number | null;
  plan: string | null;
  planName: string | null;
  state: RedemptionCodeState;
  usedAt: string | null;
  usedBy: { user: string | null; key: string | null } | null;
  expiresAt: string | null;
  createdAt: string | null;
}
