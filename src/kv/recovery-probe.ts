import type { RedisConnection } from './open-redis.ts';

export interface RecoveryProbe {
  /** Starts pinging (once armed, further calls change nothing). */
  arm(): void;
  disarm(): void;
}

/**
 * While the failover kv is down, pings Redis every `intervalMs` and asks for a recovery when it
 * answers on a ready connection and none is under way. A 'ready' event alone cannot be relied on:
 * a fallback on a live but slow connection gets none, and neither does a recovery that failed on
 * a connection that went ready meanwhile (a replica not promoted yet, a command timed out under
 * load). Armed however the kv went down, so an instance always rejoins once Redis answers.
 */
export function createRecoveryProbe(input: {
  redis: RedisConnection;
  intervalMs: number;
  /** True while a recovery is running or queued. */
  recovering: () => boolean;
  recover: () => void;
}): RecoveryProbe {
  const { redis } = input;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (redis.status !== 'ready' || input.recovering()) return;
    redis.ping().then(
      () => {
        if (timer !== undefined && redis.status === 'ready' && !input.recovering()) input.recover();
      },
      () => undefined,
    );
  };
  return {
    arm() {
      if (timer !== undefined) return;
      timer = setInterval(tick, input.intervalMs);
      timer.unref();
    },
    disarm() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}
