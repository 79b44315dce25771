import type { GatewayError } from '../../core/gateway-error.ts';

/**
 * What a failed attempt says, and about what:
 * - `broken`: the upstream refuses the channel's credential itself (revoked key, no credit):
 *   take that upstream key out now (the whole channel when it has only one); only a health
 *   check or the cool-down brings it back.
 * - `transient`: timeouts, resets, 5xx, 429: counts towards an error rate; worth a retry elsewhere.
 * - `misconfigured`: the channel's own address or model list is wrong — the upstream has no such
 *   route (405, or a 404 that is no provider API error at all: a wrong base address, e.g. an
 *   OpenAI-compatible one without `/v1`) or says the model the channel claims does not exist.
 *   Counts against the channel × model like a transient failure (so its health, the matrix and
 *   diagnose show it) and the next channel is tried; a health check or the Test button shows it.
 * - `request`: the upstream rejected this particular request (400, 403, other 404s, 413, 422…):
 *   the client's own doing, never counted against the channel, not retried, returned to the client.
 *
 * `scope` says which circuit a transient failure counts against: `channel` when the host
 * itself cannot be reached (every model on it is affected), `model` when the host answered
 * but this model failed or hung — so one overloaded or hanging model does not take the
 * channel's other models out with it.
 */
export type FailureClass = 'broken' | 'transient' | 'misconfigured' | 'request';
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

/**
 * Structured identifiers of a 404 that name a missing model or deployment specifically (OpenAI
 * `model_not_found`, Azure `DeploymentNotFound`). The gateway sends only models a channel
 * claims (a client naming any other is refused before routing), so this is the channel's claim
 * being wrong. Generic not-found identifiers (Anthropic `not_found_error`, Gemini `NOT_FOUND`,
 * OpenAI's untyped `invalid_request_error`) are not here: they also answer a file, cached
 * content or earlier response a client named, and a tenant must not be able to open a circuit.
 */
const MISSING_MODEL_CODES = new Set(['model_not_found', 'deploymentnotfound']);

/** Said in the channel's health next to the upstream's own words, so the console and diagnose name the fix. */
export const MISCONFIGURED_HINT =
  "the upstream has no such route or model — check the channel's base address (an OpenAI-compatible one usually ends in a version such as /v1) and its model names";

/** A misconfigured channel's health record: the upstream's words and the hint. */
export function withMisconfiguredHint<T extends { message: string }>(lastError: T): T {
  return { ...lastError, message: `${lastError.message} (${MISCONFIGURED_HINT})` };
}

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
  if (isMisconfiguration(upstreamStatus, error.upstreamCodes ?? [])) return { failureClass: 'misconfigured', scope: 'model' };
  return retryStatuses.has(upstreamStatus) ? { failureClass: 'transient', scope: 'model' } : { failureClass: 'request', scope: 'model' };
}

/**
 * 405: the address takes no POST — nothing in a request body changes that. 404 with no
 * structured provider error identifier at all: the provider's API did not answer (a web server's
 * or framework's "not found" page, `{"detail":"Not Found"}`), so the path is wrong, and the path
 * comes from the channel (base address, protocol, claimed model), never from the client. 404
 * naming a missing model: see MISSING_MODEL_CODES.
 */
function isMisconfiguration(upstreamStatus: number, codes: readonly string[]): boolean {
  if (upstreamStatus === 405) return true;
  if (upstreamStatus !== 404) return false;
  return codes.length === 0 || codes.some((code) => MISSING_MODEL_CODES.has(code.toLowerCase()));
}
