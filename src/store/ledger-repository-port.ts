import type { CostByChannelDay, LedgerAttempt, LedgerCharge, MarginQuery, MarginRow, UpstreamBill } from '../domain/ledger-entry.ts';

/** The ledger's rows and the upstreams' bills (migrations 017, 018). */
export interface LedgerRepository {
  /** Batched insert of one or more requests' rows; a request id already written is skipped. */
  insertMany(attempts: LedgerAttempt[], charges: LedgerCharge[]): Promise<void>;
  attemptsOf(requestId: string): Promise<LedgerAttempt[]>;
  chargesOf(requestId: string): Promise<LedgerCharge[]>;
  /** Revenue (charges) and cost (attempts) per UTC day × the dimension, days ascending. */
  margin(query: MarginQuery): Promise<MarginRow[]>;
  /** The ledger's cost per channel per UTC day in [from, to). */
  costByChannelDay(from: number, to: number, channelId?: string): Promise<CostByChannelDay[]>;
  /** Replaces the lines of the same channel × day × model. */
  saveUpstreamBills(bills: UpstreamBill[]): Promise<void>;
  upstreamBills(from: string, to: string, channelId?: string): Promise<UpstreamBill[]>;
  /**
   * Deletes attempt and charge rows older than `before`, in batches; a channel-day without an
   * imported bill is kept until `unreconciledBefore` (earlier). Returns the rows deleted.
   */
  pruneBefore(before: number, unreconciledBefore: number): Promise<number>;
}
