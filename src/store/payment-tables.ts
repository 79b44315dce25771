import type { Generated } from 'kysely';

/** Issue 28's tables (migrations 020 and 021): payment orders, providers, debts, referral and promotions. */

export interface PaymentOrdersTable {
  id: string;
  user_id: string;
  provider: string;
  plan_id: string | null;
  status: string;
  amount_micros: number;
  credit_micros: number;
  bonus_micros: number;
  currency: string;
  charge_minor: number;
  promotion_code: string | null;
  provider_ref: string | null;
  payment_ref: string | null;
  payer_fingerprint: string | null;
  checkout_url: string | null;
  refunded_micros: number;
  expires_at: number;
  paid_at: number | null;
  credited_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface PaymentProvidersTable {
  name: string;
  enabled: number;
  settings: string;
  secrets_sealed: string | null;
  updated_at: number;
}

export interface AccountDebtsTable {
  user_id: string;
  debt_micros: number;
  updated_at: number;
}

export interface ReferralCodesTable {
  user_id: string;
  code: string;
  rate_percent: number | null;
  device_fingerprint: string | null;
  /** Asked for in withdrawals that were not rejected (migration 040). */
  withdrawn_micros: Generated<number>;
  created_at: number;
}

export interface ReferralsTable {
  invitee_id: string;
  inviter_id: string;
  fingerprint: string | null;
  created_at: number;
}

export interface ReferralRebatesTable {
  id: string;
  order_id: string;
  inviter_id: string;
  invitee_id: string;
  amount_micros: number;
  clawed_micros: number;
  status: string;
  release_at: number;
  credited_at: number | null;
  created_at: number;
}

export interface PromotionCodesTable {
  code: string;
  kind: string;
  value: number;
  usage_limit: number | null;
  used_count: number;
  expires_at: number | null;
  created_at: number;
}

export interface PromotionUsesTable {
  code: string;
  user_id: string;
  order_id: string;
  created_at: number;
}
