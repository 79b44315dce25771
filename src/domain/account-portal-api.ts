import type { QuotaWindow } from './plan.ts';

/**
 * The account portal's wire shapes (`/api/account`, and the operator's top-up trail): what the
 * server's routes answer and what the console reads, declared once here and imported by both
 * (`src/server/portal/account-routes.ts` through `src/accounts/`, and the console's pages). Money in USD,
 * times as ISO strings.
 */
import type { BillingMode } from './billing-mode.ts';

/** The plan's windows (`domain/plan.ts`), under the name the console knows. */
export type PortalQuotaWindow = QuotaWindow;

export interface PortalUser {
  id: string;
  name: string;
  email: string | null;
  balance: number;
  spent: number;
  enabled: boolean;
}

export interface PortalSubscription {
  id: string;
  user: string;
  userName: string | null;
  plan: string;
  planName: string | null;
  group: string | null;
  status: 'active' | 'suspended' | 'expired';
  startsAt: string | null;
  expiresAt: string | null;
  usage: Record<PortalQuotaWindow, number>;
  resetsAt: Record<Exclude<PortalQuotaWindow, 'total'>, string | null>;
  quota: Partial<Record<PortalQuotaWindow, number | null>>;
  remaining: Partial<Record<PortalQuotaWindow, number | null>>;
}

/** A group the account may create keys in: a subscription's, or the operator's default for accounts. */
export interface PortalGroup {
  name: string;
  description: string;
  billing: BillingMode;
  models: string[];
  via: 'subscription' | 'default';
}

/** `GET /api/account` (and, without the lists, `POST /api/account/session`). */
export interface PortalAccountView {
  user: PortalUser;
  subscriptions: PortalSubscription[];
  groups: PortalGroup[];
  csrfToken: string;
  sessionExpiresAt: string;
  altPrefix: string;
  /** What a refund could not take back from the wallet (issue 28); repaid first by the next top-up. */
  debtUsd: number;
  /** Whether sign-in asks this account for a TOTP code (issue 29): the Security page offers to enrol or to turn it off. */
  twoFactor: boolean;
}

export interface PortalSignIn {
  user: PortalUser;
  csrfToken: string;
  sessionExpiresAt: string;
}

export interface PortalKey {
  id: string;
  name: string;
  group: string;
  keyHint: string;
  enabled: boolean;
  expiresAt: string | null;
  spent: number;
  allowedIps: string[] | null;
  /** What the key's group serves (within the key's own allow-list). */
  models: string[];
  limits: { dailySpend?: number; weeklySpend?: number; monthlySpend?: number };
  createdAt: string;
}

export interface PortalRedeemAnswer {
  kind: 'balance' | 'subscription';
  amount?: number;
  subscription?: { id: string; planName: string | null; group: string | null; startsAt: string; expiresAt: string };
  balance: number;
  message: string;
}

export interface PortalUsageTotals {
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

export interface PortalUsageRow {
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
  paidBy: string | null;
}

/** `GET /api/account/usage?days=`. */
export interface PortalUsage {
  days: number;
  byDay: Array<PortalUsageTotals & { day: string }>;
  byModel: Array<PortalUsageTotals & { model: string | null }>;
  recent: PortalUsageRow[];
}

/** One entry of a wallet's audit trail (`/api/admin/users/:id/top-ups`). */
export interface WalletAdjustmentView {
  id: string;
  userId: string;
  amount: number;
  note: string;
  balanceAfter: number | null;
  time: string;
}
