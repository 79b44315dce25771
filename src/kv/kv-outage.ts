import { GatewayError } from '../core/gateway-error.ts';

/** While Redis is unreachable (an outage, a failover): serve on per-instance counters, or refuse with a retryable 429. */
export const REDIS_OUTAGE_MODES = ['local', 'refuse'] as const;
export type RedisOutageMode = (typeof REDIS_OUTAGE_MODES)[number];

export function unavailableError(): GatewayError {
  return new GatewayError('rate_limited', "The gateway's shared counters are unreachable (Redis is failing over); retry in a few seconds.", {
    retryAfterSeconds: 2,
  });
}

export function slowAnswerError(cause: unknown): GatewayError {
  return new GatewayError('rate_limited', "The gateway's shared counters answered too slowly; retry in a second.", { retryAfterSeconds: 1, cause });
}

/** ioredis's `commandTimeout` rejection: the command got no answer in time, the connection is not known to be down. */
export function isSlowAnswer(error: unknown): boolean {
  return error instanceof Error && /command timed out/i.test(error.message);
}
