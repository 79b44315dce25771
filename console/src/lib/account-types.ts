/**
 * Shapes of the accounts admin API (issue 15's contract under /api/admin): money in USD, times as
 * ISO strings. Fields the contract leaves
 * open (how a subscription names its user, a code's state) are typed loosely and read through
 * the helpers in account-format.ts.
 */
export type BillingMode = 'balance' | 'subscription' | 'subscription_then_balance';
export type QuotaWindow = 'daily' | 'weekly' | 'monthly' | 'total';
export const QUOTA_WINDOWS: QuotaWindow[] = ['daily', 'weekly', 'monthly', 'total'];

export interface Quota {
  daily?: number | null;
  weekly?: number | null;
  monthly?: number | null;
  total?: number | null;
}

/** A name or id, or the record itself: the contract accepts either and answers may carry either. */
export type Ref = string | { id?: string; name?: string } | null | undefined;

export interface User {
  id: string;
  name: string;
  email: string | null;
  balance: number;
  enabled: boolean;
  createdAt?: string;
}

export interface Plan {
  id: string;
  name: string;
  group: Ref;
  durationDays: number;
  quota: Quota;
  price: number | null;
  description: string;
}

export interface Subscription {
  id: string;
  user: Ref;
  plan: Ref;
  group: Ref;
  status: 'active' | 'suspended' | 'expired' | string;
  startsAt: string;
  expiresAt: string;
  usage: Partial<Record<QuotaWindow, number>>;
  resetsAt: Partial<Record<Exclude<QuotaWindow, 'total'>, string | null>>;
  /** The plan's quotas, when the answer carries them (else read from the plan). */
  quota?: Quota;
  remaining?: Partial<Record<QuotaWindow, number | null>>;
  planName?: string | null;
  userName?: string | null;
}

export interface RedemptionCodeRecord {
  id?: string;
  kind: 'balance' | 'subscription';
  amount?: number | null;
  plan?: Ref;
  planName?: string | null;
  state?: string | { state?: string; usedBy?: Ref | { user?: string | null; key?: string | null }; usedAt?: string | null } | null;
  status?: string;
  usedBy?: Ref | { user?: string | null; key?: string | null };
  usedAt?: string | null;
  expiresAt?: string | null;
  createdAt?: string | null;
  hint?: string;
}

/**
 * The portal's own answers (/api/account) and the wallet audit trail are declared once, beside the
 * server, in src/domain/account-portal-api.ts; the server's routes are typed by the same file.
 */
export type {
  PortalAccountView as AccountView,
  PortalKey as AccountKey,
  PortalRedeemAnswer as RedeemAnswer,
  PortalUsage as AccountUsage,
  PortalUsageRow as AccountUsageRow,
  WalletAdjustmentView as WalletAdjustment,
} from '../../../src/domain/account-portal-api.ts';
