/** Kysely's view of the price history and the ledger (migrations 016–018). */
export interface PriceVersionsTable {
  id: string;
  scope: string;
  ref: string;
  model: string;
  /** The price's figures as JSON (micro-USD; NewModelPrice without the model). */
  price: string;
  discount_bps: number | null;
  effective_from: number;
  created_at: number;
  source: string | null;
}

export interface LedgerAttemptsTable {
  request_id: string;
  attempt_no: number;
  time: number;
  model: string | null;
  group_name: string | null;
  account_id: string | null;
  channel_id: string | null;
  key_slot: number | null;
  upstream_request_id: string | null;
  status: number | null;
  /** JSON text: the upstream's own usage object (at most 4,096 characters); null when none was read. */
  raw_usage: string | null;
  /** 1: the upstream's object was longer and `raw_usage` is its start (migration 039). */
  raw_usage_truncated: number;
  /** JSON: the canonical Usage billed (after the token-class rules). */
  usage: string;
  cost_micros: number;
  cost_version: string | null;
  charged: number;
  /** JSON string[]. */
  warnings: string;
}

export interface LedgerChargesTable {
  request_id: string;
  payer_kind: string;
  payer_id: string | null;
  time: number;
  key_id: string | null;
  account_id: string | null;
  group_name: string | null;
  model: string | null;
  channel_id: string | null;
  sell_micros: number;
  sell_version: string | null;
}

export interface UpstreamBillsTable {
  channel_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  model: string;
  cost_micros: number;
  /** JSON: tokens by class as the export stated them. */
  tokens: string;
  source: string;
  imported_at: number;
}
