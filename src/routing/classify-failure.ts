import type { GatewayError } from '../core/gateway-error.ts';

/**
 * What a failed attempt says about the channel:
 * - `broken`: the upstream refuses this channel itself (bad or revoked credentials, no credit):
 *   take it (or that one upstream key) out now; only a health check brings it back.
 * - `transient`: timeouts, resets, 5xx, 429: counts towards the error rate; worth a retry elsewhere.
 * - `request`: the upstream rejected this particular request (400, 404, 413, 422…): not the
 *   channel's fault, not retried, returned to the client as it is.
 */
export type FailureClass = 'broken' | 'transient' | 'request';

const BROKEN_MESSAGE =
  /insufficient[_ ]quota|credit balance|billing|exceeded your current quota|account (is )?(suspended|deactivated|disabled)|api key (is )?(not valid|invalid|expired|revoked)|invalid[_ ]api[_ ]key|permission[_ ]denied/i;

export function classifyFailure(error: GatewayError, upstreamStatus: number | null, retryStatuses: ReadonlySet<number>): FailureClass {
  if (upstreamStatus === 401 || upstreamStatus === 403) return 'broken';
  if (upstreamStatus !== null && upstreamStatus !== 429 && BROKEN_MESSAGE.test(error.message)) return 'broken';
  if (upstreamStatus === null) return error.retryable ? 'transient' : 'request';
  return retryStatuses.has(upstreamStatus) ? 'transient' : 'request';
}
