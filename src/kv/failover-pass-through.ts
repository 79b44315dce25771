import type { Kv } from './kv.ts';

/** How createFailoverKv runs one call: on Redis, else on the fallback (or refused, or `whenRefusing`). */
export type FailoverRun = <T>(onPrimary: () => Promise<T>, onFallback: (kv: Kv) => Promise<T>, whenRefusing?: () => Promise<T>) => Promise<T>;

/** The operations whose fallback keeps no books for the replay: the same call on Redis or on the local kv. */
export type PassThroughOperations = Pick<
  Kv,
  'get' | 'setIfAbsent' | 'delete' | 'seedAccount' | 'fund' | 'acquireLease' | 'releaseLease' | 'getTexts' | 'setTexts'
>;

/**
 * The failover kv's plain operations (see create-failover-kv.ts): balances and holds keep books
 * of what changed locally, these do not, so they only choose where to run.
 */
export function passThroughOperations(primary: Kv, run: FailoverRun): PassThroughOperations {
  return {
    get: (key) =>
      run(
        () => primary.get(key),
        (kv) => kv.get(key),
      ),
    setIfAbsent: (key, value, ttlMs) =>
      run(
        () => primary.setIfAbsent(key, value, ttlMs),
        (kv) => kv.setIfAbsent(key, value, ttlMs),
      ),
    delete: (key) =>
      run(
        () => primary.delete(key),
        (kv) => kv.delete(key),
      ),
    seedAccount: (key, value, seedOptions) =>
      run(
        () => primary.seedAccount(key, value, seedOptions),
        (kv) => kv.seedAccount(key, value, seedOptions),
      ),
    fund: (key, funding) =>
      run(
        () => primary.fund(key, funding),
        (kv) => kv.fund(key, funding),
      ),
    // A lease taken in Redis before an outage and given back during it simply expires there.
    releaseLease: (key, holder) =>
      run(
        () => primary.releaseLease(key, holder),
        (kv) => kv.releaseLease(key, holder),
        async () => undefined,
      ),
    acquireLease: (key, holder, leaseOptions) =>
      run(
        () => primary.acquireLease(key, holder, leaseOptions),
        (kv) => kv.acquireLease(key, holder, leaseOptions),
      ),
    getTexts: (keys) =>
      run(
        () => primary.getTexts(keys),
        (kv) => kv.getTexts(keys),
      ),
    setTexts: (keys, value, ttlMs) =>
      run(
        () => primary.setTexts(keys, value, ttlMs),
        (kv) => kv.setTexts(keys, value, ttlMs),
      ),
  };
}
