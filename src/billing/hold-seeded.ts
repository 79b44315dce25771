import type { Kv, KvAdjustResult, KvFunding, KvHoldOptions } from '../kv/kv.ts';

/** What a missing account or window is seeded with (see Kv.seedAccount). */
export interface AccountSeed {
  value: number;
  ttlMs?: number;
  funding?: KvFunding;
}

/**
 * Holds `delta` under `holdId` on an account that must exist, seeding it first when the kv says
 * it is missing: a kv that lost its data (a Redis restart, the local fallback during an outage)
 * is re-seeded, never read as zero. With a shared kv the first instance to seed wins.
 */
export async function holdSeeded(
  kv: Kv,
  name: string,
  holdId: string,
  delta: number,
  options: KvHoldOptions,
  seed: () => Promise<AccountSeed>,
): Promise<KvAdjustResult> {
  for (let attempt = 0; ; attempt += 1) {
    const result = await kv.hold(name, holdId, delta, options);
    if (!result.missing || attempt === 2) return result;
    const { value, ttlMs, funding } = await seed();
    await kv.seedAccount(name, value, { ...(ttlMs === undefined ? {} : { ttlMs }), ...(funding === undefined ? {} : { funding }) });
  }
}

/**
 * What a balance has been funded with as of its record's version: balance plus spent, a sum
 * settled charges never change (they move money from one to the other) and top-ups, redemptions
 * and corrections do. Null for an unlimited key.
 */
export function fundingOf(record: { balanceMicros: number | null; spentMicros: number; updatedAt: number }): KvFunding | undefined {
  if (record.balanceMicros === null) return undefined;
  return { version: record.updatedAt, fundedMicros: record.balanceMicros + record.spentMicros };
}
