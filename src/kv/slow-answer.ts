import { GatewayError } from '../core/gateway-error.ts';

/** The retryable refusal of a call Redis did not answer in time on a live connection. */
export function slowAnswerError(cause: unknown): GatewayError {
  return new GatewayError('rate_limited', "The gateway's shared counters answered too slowly; retry in a second.", { retryAfterSeconds: 1, cause });
}

/** ioredis's `commandTimeout` rejection: the command got no answer in time, the connection is not known to be down. */
export function isSlowAnswer(error: unknown): boolean {
  return error instanceof Error && /command timed out/i.test(error.message);
}
