import { cleanUpstreamText, redactSecrets } from '../core/redact-secrets.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { ChannelAdapter } from './channels/channel-adapter.ts';
import type { ProtocolCodec } from '../protocols/protocol-codec.ts';
import { extractUpstreamErrorCodes } from './routing/upstream-error-codes.ts';
import type { UpstreamResponse } from './channels/upstream-client.ts';

/** Upstream error bodies are short; anything longer is cut so a misbehaving host cannot balloon memory. */
const MAX_ERROR_BODY_CHARS = 16_384;

/**
 * Reads an upstream's error reply into a GatewayError that keeps the upstream's status (so a
 * client sees 400 as 400 and 503 as 503) and its message, in words a client can act on. The
 * message is cleaned (control characters, length) and the channel's own secrets are redacted
 * from it before it goes anywhere — client, usage log, channel health — since an upstream may
 * quote the credential it was sent. The structured identifiers (type, code, status, reasons)
 * are kept for failure classification, which never reads the message. A kind that names the
 * type in a header (`kind.errorTypeFromHeaders`, Bedrock) has it taken from there first.
 */
export async function readUpstreamError(
  response: UpstreamResponse,
  codec: ProtocolCodec,
  secrets: readonly string[] = [],
  kind?: Pick<ChannelAdapter, 'errorTypeFromHeaders'>,
): Promise<GatewayError> {
  let text = '';
  try {
    text = (await readCapped(response, MAX_ERROR_BODY_CHARS)).slice(0, MAX_ERROR_BODY_CHARS);
  } catch {
    // The body itself failed; the status alone still says what happened.
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  const decoded = codec.decodeError(response.statusCode, parsed);
  const rawMessage = decoded.message;
  const headerType = kind?.errorTypeFromHeaders?.(response.headers);
  const type = headerType ?? decoded.type;
  const message = cleanUpstreamText(redactSecrets(rawMessage, secrets));
  const status = response.statusCode;
  const retryAfter = Number(headerValue(response.headers['retry-after']));
  const upstreamCodes = [...(headerType === undefined ? [] : [headerType]), ...extractUpstreamErrorCodes(parsed)];
  const options = {
    status,
    ...(type === undefined ? {} : { upstreamType: redactSecrets(type, secrets) }),
    ...(upstreamCodes.length === 0 ? {} : { upstreamCodes }),
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: Math.min(retryAfter, 3_600) } : {}),
  };
  const detail = message ? `: ${message}` : '';
  if (status === 429) {
    return new GatewayError('upstream_rate_limited', `The upstream provider is rate limiting requests${detail}`, options);
  }
  return new GatewayError('upstream_error', `The upstream provider answered ${status}${detail}`, options);
}

/** Reads at most about `limit` bytes of the body and drops the rest, so a 50 MB error page is never held whole. */
async function readCapped(response: UpstreamResponse, limit: number): Promise<string> {
  const body = response.body as unknown as AsyncIterable<Uint8Array> & { text(): Promise<string> };
  if (typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function') return body.text();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    // Leaving the loop destroys the rest of the body: the connection is dropped, not drained.
    if (size >= limit * 4) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
