import type { Kv } from './kv.ts';

/** What the per-process fallback did while Redis was away, keyed as the failover kv keeps it. */
export interface FallbackChanges {
  /** Settles Redis has not confirmed, by `key\0holdId`. */
  pendingSettles: Map<string, { key: string; holdId: string; finalDelta: number }>;
  /** Holds made on the fallback and not settled yet, by `key\0holdId`. */
  localHolds: Map<string, { key: string; holdId: string; delta: number }>;
  /** Net changes to tracked keys (balances, spend windows). */
  deltas: Map<string, number>;
}

/** Applies what the fallback did to Redis; each change is forgotten once applied (a failure keeps the rest). */
export async function replayFallbackChanges(primary: Kv, changes: FallbackChanges): Promise<number> {
  const { pendingSettles, localHolds, deltas } = changes;
  let applied = 0;
  for (const [id, settle] of [...pendingSettles]) {
    await primary.settle(settle.key, settle.holdId, settle.finalDelta);
    pendingSettles.delete(id);
    applied += 1;
  }
  // Unbounded: the fallback already decided these holds fit.
  for (const [id, hold] of [...localHolds]) {
    await primary.hold(hold.key, hold.holdId, hold.delta);
    localHolds.delete(id);
    applied += 1;
  }
  for (const [key, delta] of [...deltas]) {
    deltas.delete(key);
    if (delta === 0) continue;
    try {
      await primary.adjust(key, delta, { requireExisting: true });
    } catch (error) {
      deltas.set(key, (deltas.get(key) ?? 0) + delta);
      throw error;
    }
    applied += 1;
  }
  return applied;
}
