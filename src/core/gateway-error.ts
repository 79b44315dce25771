/**
 * The one error catalog. Every failure the gateway reports is a `GatewayError` with a stable
 * machine code from this table; each client protocol's codec renders it in its own shape.
 * Messages are English sentences that name the cause and the fix.
 */
export const ERROR_CATALOG = {
  // The request itself
  invalid_request: { status: 400, retryable: false },
  body_too_large: { status: 413, retryable: false },
  route_not_found: { status: 404, retryable: false },
  method_not_allowed: { status: 405, retryable: false },
  // Responses over WebSocket turned off, or the key's socket cap reached: the client uses HTTP.
  websocket_unavailable: { status: 426, retryable: false },
  // Who is calling
  invalid_api_key: { status: 401, retryable: false },
  key_expired: { status: 403, retryable: false },
  key_disabled: { status: 403, retryable: false },
  ip_not_allowed: { status: 403, retryable: false },
  insufficient_balance: { status: 403, retryable: false },
  spend_limit_reached: { status: 403, retryable: false },
  // Subscriptions and redemption codes (accounts)
  subscription_required: { status: 403, retryable: false },
  subscription_expired: { status: 403, retryable: false },
  subscription_suspended: { status: 403, retryable: false },
  subscription_quota_exhausted: { status: 403, retryable: false },
  invalid_redemption_code: { status: 400, retryable: false },
  rate_limited: { status: 429, retryable: true },
  // Which model
  model_not_found: { status: 404, retryable: false },
  model_not_in_group: { status: 403, retryable: false },
  model_not_allowed_for_key: { status: 403, retryable: false },
  model_not_priced: { status: 403, retryable: false },
  prefix_not_allowed: { status: 403, retryable: false },
  // Stateful Responses (previous_response_id, GET/DELETE /v1/responses/{id})
  previous_response_not_found: { status: 400, retryable: false },
  response_not_found: { status: 404, retryable: false },
  /** A chain or a key's kept turns past their byte bounds (RESPONSES_MAX_CHAIN_BYTES, RESPONSES_MAX_KEY_BYTES). */
  stored_responses_limit: { status: 429, retryable: false },
  // Upstream trouble
  no_available_channel: { status: 503, retryable: true },
  upstream_error: { status: 502, retryable: true },
  upstream_rate_limited: { status: 429, retryable: true },
  upstream_timeout: { status: 504, retryable: true },
  upstream_unreachable: { status: 502, retryable: true },
  upstream_invalid_response: { status: 502, retryable: true },
  stream_idle_timeout: { status: 504, retryable: false },
  // Admin API and everything else
  admin_unauthorized: { status: 401, retryable: false },
  /** The admin's role lacks the route's permission (issue 29). */
  insufficient_role: { status: 403, retryable: false },
  // The account portal (/api/account)
  sign_in_failed: { status: 401, retryable: false },
  session_required: { status: 401, retryable: false },
  csrf_failed: { status: 403, retryable: false },
  // Sign-in methods and self sign-up (issue 29)
  /** The account has a confirmed TOTP factor: the sign-in needs its code (or a recovery code) in `totp`. */
  totp_required: { status: 401, retryable: false },
  /** The owner requires TOTP of every admin and this one has none yet: only enrolment and `self` routes answer. */
  totp_enrolment_required: { status: 403, retryable: false },
  /** Passwords are off ("OIDC only") or self sign-up is off: the route is closed by the operator's setting. */
  sign_in_method_disabled: { status: 403, retryable: false },
  captcha_failed: { status: 400, retryable: false },
  /** A verification or reset link that was used, expired or never existed. */
  link_invalid: { status: 400, retryable: false },
  not_found: { status: 404, retryable: false },
  conflict: { status: 409, retryable: false },
  internal_error: { status: 500, retryable: false },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type GatewayErrorCode = keyof typeof ERROR_CATALOG;

export interface GatewayErrorOptions {
  /** Overrides the catalog status, e.g. to preserve an upstream's 4xx/5xx class. */
  status?: number;
  /** The request field at fault, for protocols that report it (OpenAI `param`). */
  param?: string;
  /** Seconds a client should wait before retrying (sent as `retry-after`). */
  retryAfterSeconds?: number;
  /** The upstream's own error type or code, kept for logs. */
  upstreamType?: string;
  /** Every structured identifier of the upstream's error (type, code, status, reasons), for failure classification. */
  upstreamCodes?: readonly string[];
  /**
   * The channel is not to blame: the request asked for more than this gateway carries (a reply past
   * MAX_UPSTREAM_REPLY_BYTES). Its health is not charged and no other channel is tried (it would write as much).
   */
  channelBlameless?: boolean;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly code: GatewayErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly upstreamType: string | undefined;
  readonly upstreamCodes: readonly string[] | undefined;
  readonly channelBlameless: boolean;

  constructor(code: GatewayErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.status = options.status ?? ERROR_CATALOG[code].status;
    this.retryable = ERROR_CATALOG[code].retryable;
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upstreamType = options.upstreamType;
    this.upstreamCodes = options.upstreamCodes;
    this.channelBlameless = options.channelBlameless === true;
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/** Shorthand for the most common failure: a malformed client request naming the field. */
export function invalidRequest(message: string, param?: string): GatewayError {
  return new GatewayError('invalid_request', message, param === undefined ? {} : { param });
}
