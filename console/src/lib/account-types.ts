/**
 * Shapes of the accounts API (issue 15's admin contract under /api/admin, and the account
 * portal's own /api/account): money in USD, times as ISO strings. Fields the contract leaves
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

export interface WalletAdjustment {
  id: string;
  userId: string;
  amount: number;
  note: string;
  balanceAfter: number | null;
  time: string;
}

/** GET /api/account: who is signed in, and what they can use. */
export interface AccountView {
  user: User;
  subscriptions: Subscription[];
  /** Groups the account may create keys in, with the models each serves. */
  groups: Array<{ name: string; description: string; billing: BillingMode; models: string[]; via: 'subscription' | 'default' }>;
  csrfToken: string;
  sessionExpiresAt: string;
  altPrefix: string;
}

export interface AccountKey {
  id: string;
  name: string;
  group: string;
  keyHint: string;
  enabled: boolean;
  expiresAt: string | null;
  spent: number;
  allowedIps: string[] | null;
  models: string[];
  limits: { dailySpend?: number; weeklySpend?: number; monthlySpend?: number };
  createdAt: string;
}

export interface AccountUsageRow {
  requestId: string;
  time: string;
  keyName: string | null;
  model: string | null;
  status: number;
  errorCode: string | null;
  errorMessage: string | null;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  stream: boolean;
  latencyMs: number;
}

export interface AccountUsage {
  days: number;
  byDay: Array<{ day: string; requests: number; errors: number; inputTokens: number; outputTokens: number; cost: number }>;
  byModel: Array<{ model: string | null; requests: number; errors: number; inputTokens: number; outputTokens: number; cost: number }>;
  recent: AccountUsageRow[];
}
