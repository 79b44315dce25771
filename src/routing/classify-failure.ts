import type { GatewayError } from '../core/gateway-error.ts';

/**
 * What a failed attempt says, and about what:
 * - `broken`: the upstream refuses the channel's credential itself (revoked key, no credit):
 *   take that upstream key out now (the whole channel when it has only one); only a health
 *   check or the cool-down brings it back.
 * - `transient`: timeouts, resets, 5xx, 429: counts towards an error rate; worth a retry elsewhere.
 * - `request`: the upstream rejected this particular request (400, 403, 404, 413, 422…): the
 *   client's own doing, never counted against the channel, not retried, returned to the client.
 *
 * `scope` says which circuit a transient failure counts against: `channel` when the host
 * itself cannot be reached (every model on it is affected), `model` when the host answered
 * but this model failed or hung — so one overloaded or hanging model does not take the
 * channel's other models out with it.
 */
export type FailureClass = 'broken' | 'transient' | 'request';
export type FailureScope = 'channel' | 'model';

export interface FailureVerdict {
  failureClass: FailureClass;
  scope: FailureScope;
}

/**
 * Structured upstream identifiers (error type / code / status / reason, compared in lower
 * case) that mean the credential or the account is unusable, whatever the request was.
 */
const CREDENTIAL_CODES = new Set([
  'invalid_api_key',
  'insufficient_quota',
  'billing_error',
  'billing_hard_limit_reached',
  'billing_not_active',
  'account_deactivated',
  'access_terminated',
  'authentication_error',
  'api_key_invalid',
  'api_key_service_blocked',
  'unauthenticated',
  // AWS (Bedrock's `x-amzn-errortype`, 403): an unknown or revoked key, a wrong secret, an expired session token.
  'unrecognizedclientexception',
  'invalidsignatureexception',
  'expiredtokenexception',
]);

/** Failures before any upstream status: the host could not be reached at all. */
const CONNECTION_CODES = new Set(['upstream_unreachable']);

/**
 * Classifies from the upstream's HTTP status and its structured error identifiers only —
 * never from message text, which a client can influence (an upstream quoting an unknown field
 * named `billing` must not take the channel out for every tenant).
 */
export function classifyFailure(error: GatewayError, upstreamStatus: number | null, retryStatuses: ReadonlySet<number>): FailureVerdict {
  if (upstreamStatus === null) {
    if (!error.retryable) return { failureClass: 'request', scope: 'model' };
    return { failureClass: 'transient', scope: CONNECTION_CODES.has(error.code) ? 'channel' : 'model' };
  }
  // 401 and 402 are about the credential the gateway sent (clients' own headers never reach the upstream).
  if (upstreamStatus === 401 || upstreamStatus === 402) return { failureClass: 'broken', scope: 'channel' };
  if (upstreamStatus >= 400 && upstreamStatus < 500 && (error.upstreamCodes ?? []).some((code) => CREDENTIAL_CODES.has(code.toLowerCase()))) {
    return { failureClass: 'broken', scope: 'channel' };
  }
  return retryStatuses.has(upstreamStatus) ? { failureClass: 'transient', scope: 'model' } : { failureClass: 'request', scope: 'model' };
}
