/**
 * A single-use code. Only its SHA-256 (`codeHash`) is stored; the code itself is shown once,
 * when it is created.
 */
export interface RedemptionCode {
  id: string;
  codeHash: string;
  kind: 'balance' | 'subscription';
  /** `balance` codes: micro-USD added to the wallet (or to a user-less key's own balance). */
  amountMicros: number | null;
  /** `subscription` codes: the plan granted. */
  planId: string | null;
  expiresAt: number | null;
  usedAt: number | null;
  usedByUserId: string | null;
  usedByKeyId: string | null;
  createdAt: number;
}

export type NewRedemptionCode = Pick<RedemptionCode, 'codeHash' | 'kind' | 'amountMicros' | 'planId' | 'expiresAt'>;

export type RedemptionCodeState = 'unused' | 'used' | 'expired';

export function redemptionCodeState(code: RedemptionCode, now: number): RedemptionCodeState {
  if (code.usedAt !== null) return 'used';
  return code.expiresAt !== null && code.expiresAt <= now ? 'expired' : 'unused';
}
