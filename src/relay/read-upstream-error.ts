import { GatewayError } from '../core/gateway-error.ts';
import type { ProtocolCodec } from '../protocols/protocol-codec.ts';
import type { UpstreamResponse } from '../upstream/upstream-client.ts';

/** Upstream error bodies are short; anything longer is cut so a misbehaving host cannot balloon memory. */
const MAX_ERROR_BODY_CHARS = 16_384;

/**
 * Reads an upstream's error reply into a GatewayError that keeps the upstream's status (so a
 * client sees 400 as 400 and 503 as 503) and its message, in words a client can act on.
 */
export async function readUpstreamError(response: UpstreamResponse, codec: ProtocolCodec): Promise<GatewayError> {
  let text = '';
  try {
    text = (await response.body.text()).slice(0, MAX_ERROR_BODY_CHARS);
  } catch {
    // The body itself failed; the status alone still says what happened.
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  const { message, type } = codec.decodeError(response.statusCode, parsed);
  const status = response.statusCode;
  const retryAfter = Number(headerValue(response.headers['retry-after']));
  const options = {
    status,
    ...(type === undefined ? {} : { upstreamType: type }),
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
  };
  const detail = message ? `: ${message}` : '';
  if (status === 429) {
    return new GatewayError('upstream_rate_limited', `The upstream provider is rate limiting requests${detail}`, options);
  }
  return new GatewayError('upstream_error', `The upstream provider answered ${status}${detail}`, options);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
