/** The token counts a ledger row keeps (the canonical usage's counts, `core/usage.ts` convention). */
export interface LedgerUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  cacheWrite1hTokens?: number;
  reasoningTokens?: number;
  webSearchRequests?: number;
}

/**
 * One upstream attempt of a request as the ledger keeps it: what it consumed (as the upstream
 * reported it, and normalised), what it cost the operator and at which cost-price version, and
 * whether the customer was charged for it. A failed, cut or hedged attempt that consumed tokens
 * has a cost and `charged: false`: the operator's loss, visible.
 */
export interface LedgerAttempt {
  requestId: string;
  /** 1-based, in the order the attempts started. */
  attemptNo: number;
  time: number;
  model: string | null;
  group: string | null;
  accountId: string | null;
  channelId: string | null;
  /** The channel's upstream key index the attempt used. */
  keySlot: number | null;
  upstreamRequestId: string | null;
  status: number | null;
  /**
   * The upstream's own usage object for this attempt, as JSON text (its fields and values as the
   * upstream sent them), so an operator can check the field read against the price applied;
   * null when none was read (a failed or stopped attempt). At most `RAW_USAGE_MAX_CHARS`.
   */
  rawUsage: string | null;
  /** The upstream's object was longer than `RAW_USAGE_MAX_CHARS` and `rawUsage` is its start. */
  rawUsageTruncated: boolean;
  usage: LedgerUsage;
  costMicros: number;
  costVersion: string | null;
  charged: boolean;
  warnings: string[];
}

/** The bound on one attempt's `rawUsage` (a usage object is ~200-600 characters; some upstreams add pages of details). */
export const RAW_USAGE_MAX_CHARS = 4096;

/** One request's ledger rows, carried in its usage row to the usage writer's batch. */
export interface LedgerRows {
  attempts: LedgerAttempt[];
  charges: LedgerCharge[];
}

/** What paid: the key's balance, its user's wallet, a subscription window, or (no balance) the key's spend counter. */
export type PayerKind = 'key_balance' | 'wallet' | 'subscription' | 'key_spend';

/** One payer's part of a request: the sell amount and the sell-price version it was computed at. */
export interface LedgerCharge {
  requestId: string;
  payerKind: PayerKind;
  payerId: string | null;
  time: number;
  keyId: string | null;
  accountId: string | null;
  group: string | null;
  model: string | null;
  channelId: string | null;
  sellMicros: number;
  sellVersion: string | null;
}

/** One line of an upstream's own bill: a channel's cost of one model on one UTC day. */
export interface UpstreamBill {
  channelId: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  model: string;
  costMicros: number;
  tokens: Record<string, number>;
  source: string;
}

export type MarginDimension = 'model' | 'channel' | 'group' | 'account';

export interface MarginQuery {
  from: number;
  to: number;
  by: MarginDimension;
  model?: string;
  channel?: string;
  group?: string;
  account?: string;
}

/** Revenue, cost and margin of one UTC day × one value of the dimension. */
export interface MarginRow {
  day: string;
  key: string | null;
  requests: number;
  revenueMicros: number;
  costMicros: number;
  marginMicros: number;
}

/** A margin row as the admin API answers it: the micro-USD figures, and the same in USD for reading. */
export interface MarginRowView extends MarginRow {
  revenueUsd: number;
  costUsd: number;
  marginUsd: number;
}

/** `GET /api/admin/margin`'s JSON answer (the console reads this type). */
export interface MarginAnswer {
  from: string;
  to: string;
  by: MarginDimension;
  data: MarginRowView[];
  totals: MarginRowView;
}

/** Per channel × day: what the ledger recorded as cost and what the upstream billed. */
export interface CostByChannelDay {
  channelId: string;
  day: string;
  costMicros: number;
}
