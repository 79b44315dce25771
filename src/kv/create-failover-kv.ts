import { randomBytes } from 'node:crypto';
import { createMemoryKv } from './create-memory-kv.ts';
import type { FailoverKv, FailoverKvOptions } from './failover-kv-options.ts';
import { isSlowAnswer, slowAnswerError, unavailableError } from './kv-outage.ts';
import { createRecoveryProbe } from './recovery-probe.ts';

export type { FailoverKv, FailoverKvOptions } from './failover-kv-options.ts';
import type { Kv } from './kv.ts';
import { replayFallbackChanges } from './replay-fallback-changes.ts';
import { passThroughOperations } from './failover-pass-through.ts';

/**
 * The Redis kv with a per-process fallback: when Redis cannot be reached, requests keep being
 * served with in-memory counters (logged once), and when it is back the kv switches over
 * again (logged). Changes to balances and spend windows made locally are replayed onto Redis
 * if it kept its data (same generation marker); if Redis came back empty, nothing is replayed:
 * balances are then re-seeded from the database, which already holds every settled charge.
 * Either way no charge is counted twice.
 * With `outageMode: 'refuse'` nothing is served locally: calls are refused as retryable.
 * When an outage counts as one: see `stallBeforeFallbackMs` (failover-kv-options.ts).
 */
export function createFailoverKv(options: FailoverKvOptions): FailoverKv {
  const { redis, primary, logger } = options;
  const generationKey = `${options.prefix}kv:generation`;
  let fallback: Kv = createMemoryKv({ now: options.now });
  let down = redis.status !== 'ready';
  let deltas = new Map<string, number>();
  /** Holds made on the fallback and not settled yet: put on Redis when it is back, where they are then settled. */
  let localHolds = new Map<string, { key: string; holdId: string; delta: number }>();
  /**
   * Settles Redis has not confirmed: of holds made there before an outage, and releases of holds
   * whose command timed out (Redis may still run it when it answers again). Sent until it has
   * confirmed them; settling is idempotent per hold id, so sending one twice is harmless.
   */
  let pendingSettles = new Map<string, { key: string; holdId: string; finalDelta: number }>();
  let delivering: Promise<void> | undefined;
  /** While the fallback's changes are applied to Redis: calls wait for it. */
  let replaying: Promise<void> | undefined;
  let generation: string | undefined;
  let recovering: Promise<void> = Promise.resolve();
  const stallLimitMs = options.stallBeforeFallbackMs ?? 5_000;
  /** When the first command timed out since Redis last answered; undefined while it answers. */
  let stalledSince: number | undefined;
  /** Recoveries running or queued (each 'ready' or probe answer queues one). */
  let queuedRecoveries = 0;
  const recovered: Array<() => void> = [];

  const readGeneration = async (): Promise<string> => {
    await redis.set(generationKey, randomBytes(8).toString('hex'), 'NX');
    return (await redis.get(generationKey)) ?? '';
  };

  const markDown = (error: unknown) => {
    if (down) return;
    down = true;
    logger.debug({ status: redis.status }, 'failover kv: down');
    probe.arm();
    logger.error(
      { err: error },
      'Redis is unreachable: serving with per-process fallbacks (rate limits, concurrency, balances and spend caps are enforced per instance, circuit and key changes are not shared) until it returns',
    );
  };

  const recover = async () => {
    if (!down) {
      // First connection: remember which Redis dataset we are talking to.
      generation ??= await readGeneration().catch(() => undefined);
      return;
    }
    logger.debug({ status: redis.status }, 'failover kv: recovering');
    let current: string;
    try {
      current = await readGeneration();
    } catch (error) {
      // Gone again, or a live node refused (a replica not yet promoted): the probe retries.
      logger.debug({ status: redis.status, err: error }, 'failover kv: recovery failed, the probe retries');
      return;
    }
    const kept = generation !== undefined && generation === current;
    generation = current;
    let replayed = 0;
    const resume = () => {
      down = false;
      stalledSince = undefined;
      probe.disarm();
      logger.debug({ status: redis.status, kept }, 'failover kv: shared again');
      fallback = createMemoryKv({ now: options.now });
    };
    if (kept) {
      // Calls wait while the fallback's changes are applied (milliseconds), then go to Redis:
      // none reaches it ahead of what it depends on (a settle before the hold it settles), and
      // none adds to what is being replayed.
      const applying = (async () => {
        replayed = await replay();
        resume();
      })();
      replaying = applying.catch(() => undefined);
      try {
        await applying;
      } catch (error) {
        logger.warn({ err: error }, 'Redis answered and failed again while the changes made meanwhile were applied to it; retrying');
        return;
      } finally {
        replaying = undefined;
      }
    } else {
      // Redis lost its data: balances are re-seeded from the database, which holds every settled
      // charge; nothing of the fallback's is replayed, and settles of lost holds change nothing.
      deltas = new Map();
      localHolds = new Map();
      pendingSettles = new Map();
      resume();
    }
    for (const handler of recovered) handler();
    logger.info(
      { replayedKeys: replayed, redisKeptData: kept },
      kept
        ? 'Redis is back: shared counters resumed; balance changes made meanwhile were applied to it'
        : 'Redis is back without its data: shared counters resumed; balances are re-seeded from the database',
    );
  };

  const replay = () => replayFallbackChanges(primary, { pendingSettles, localHolds, deltas });

  /** Sends the settles Redis has not confirmed; called whenever it answers again. */
  const deliverSettles = () => {
    if (delivering !== undefined || pendingSettles.size === 0 || down) return;
    delivering = (async () => {
      try {
        for (const [id, settle] of [...pendingSettles]) {
          await primary.settle(settle.key, settle.holdId, settle.finalDelta);
          pendingSettles.delete(id);
        }
      } catch {
        // Still not answering: the next answer retries.
      } finally {
        delivering = undefined;
      }
    })();
  };

  const onReady = () => {
    queuedRecoveries += 1;
    const done = () => {
      queuedRecoveries -= 1;
    };
    recovering = recovering.then(recover, recover).finally(done);
  };
  const probe = createRecoveryProbe({
    redis,
    intervalMs: options.probeIntervalMs ?? 1_000,
    recovering: () => queuedRecoveries > 0,
    recover: () => down && onReady(),
  });
  redis.on('ready', onReady);
  if (redis.status === 'ready') onReady();
  else {
    probe.arm();
    logger.warn('Redis is not reachable yet: serving with per-process fallbacks until it is');
  }
  const onClose = () => markDown(new Error('connection to Redis closed'));
  redis.on('close', onClose);

  const tracked = (key: string) => options.replayPrefixes.some((prefix) => key.startsWith(prefix));

  /** `whenRefusing` answers instead of a refusal in the refuse mode (for calls that must not fail, like giving a lease back). */
  async function run<T>(onPrimary: () => Promise<T>, onFallback: (kv: Kv) => Promise<T>, whenRefusing?: () => Promise<T>): Promise<T> {
    if (replaying !== undefined) await replaying;
    if (!down) {
      try {
        const result = await onPrimary();
        stalledSince = undefined;
        deliverSettles();
        return result;
      } catch (error) {
        // A caller's mistake (a fraction) is not an outage.
        if (error instanceof TypeError) throw error;
        // A slow answer on a live connection is not an outage: the kv stays shared and this call
        // is refused as retryable. Serving it locally would read a fallback balance re-seeded in
        // full from the database (two instances under load served 151 requests of a balance for
        // 100), and the command may still have been applied in Redis.
        if (redis.status === 'ready' && isSlowAnswer(error)) {
          const now = options.now();
          stalledSince ??= now;
          if (now - stalledSince < stallLimitMs) throw slowAnswerError(error);
        }
        markDown(error);
      }
    }
    if (options.outageMode === 'refuse') {
      if (whenRefusing) return whenRefusing();
      throw unavailableError();
    }
    return onFallback(fallback);
  }

  return {
    get shared() {
      return !down;
    },
    settled: () => recovering,
    onRecovered: (handler) => void recovered.push(handler),
    ...passThroughOperations(primary, run),
    adjust: (key, delta, adjustOptions) =>
      run(
        () => primary.adjust(key, delta, adjustOptions),
        async (kv) => {
          const result = await kv.adjust(key, delta, adjustOptions);
          if (result.applied && tracked(key)) deltas.set(key, (deltas.get(key) ?? 0) + delta);
          return result;
        },
      ),
    async hold(key, holdId, delta, holdOptions) {
      const id = `${key}\0${holdId}`;
      let refused: unknown;
      const result = await run(
        async () => {
          try {
            return await primary.hold(key, holdId, delta, holdOptions);
          } catch (error) {
            if (error instanceof TypeError) throw error;
            // No answer is not "not applied": Redis may run the command when it answers again.
            // The hold is released by id then (exactly once), and this request is refused.
            pendingSettles.set(id, { key, holdId, finalDelta: 0 });
            refused = error;
            throw error;
          }
        },
        async (kv) => {
          if (refused !== undefined) throw slowAnswerError(refused);
          const local = await kv.hold(key, holdId, delta, holdOptions);
          if (local.applied) localHolds.set(id, { key, holdId, delta });
          return local;
        },
      );
      return result;
    },
    async settle(key, holdId, finalDelta) {
      if (replaying !== undefined) await replaying;
      const id = `${key}\0${holdId}`;
      const local = localHolds.get(id);
      if (down && local !== undefined) {
        localHolds.delete(id);
        await fallback.settle(key, holdId, finalDelta);
        if (tracked(key)) deltas.set(key, (deltas.get(key) ?? 0) + finalDelta);
        return;
      }
      if (!down) {
        try {
          await primary.settle(key, holdId, finalDelta);
          stalledSince = undefined;
          deliverSettles();
          return;
        } catch (error) {
          if (error instanceof TypeError) throw error;
          // Redis may yet run it; if it does not, it is sent again when Redis answers.
          if (!(redis.status === 'ready' && isSlowAnswer(error))) markDown(error);
        }
      }
      // A hold made on Redis (before an outage, or whose settle went unanswered): settled there
      // once it answers. Never dropped: that would keep the money held forever.
      pendingSettles.set(id, { key, holdId, finalDelta });
    },
    async close() {
      probe.disarm();
      redis.off('ready', onReady);
      redis.off('close', onClose);
      await recovering;
      await fallback.close();
      await primary.close();
    },
  };
}
