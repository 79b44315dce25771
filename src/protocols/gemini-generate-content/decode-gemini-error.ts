import { GatewayError } from '../../core/gateway-error.ts';
import { isRecord } from '../shared/is-record.ts';

/**
 * Reads an upstream Gemini error body: `{error:{code,message,status}}`, the same wrapped in an
 * array (streamed errors), JSON text, or anything else (a proxy's HTML page). Never throws.
 */
export function decodeGeminiError(status: number, body: unknown): { message: string; type?: string } {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      const text = body.trim();
      return { message: text === '' ? `HTTP ${status} with an empty body` : text.slice(0, 500) };
    }
  }
  if (Array.isArray(value)) value = value[0];
  const error = isRecord(value) && isRecord(value.error) ? value.error : undefined;
  if (error === undefined) return { message: `HTTP ${status} with an unrecognised error body` };
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : `HTTP ${status}`;
  const reason = Array.isArray(error.details)
    ? error.details.find((detail): detail is Record<string, unknown> => isRecord(detail) && typeof detail.reason === 'string')?.reason
    : undefined;
  const type = typeof reason === 'string' ? reason : typeof error.status === 'string' ? error.status : undefined;
  return type === undefined ? { message } : { message, type };
}

/** An error Gemini reported inside a 200 response (a stream chunk or body) → a gateway error. */
export function gatewayErrorFromGemini(body: unknown): GatewayError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const code = typeof error.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : 502;
  const { message, type } = decodeGeminiError(code, body);
  const options = { status: code, ...(type === undefined ? {} : { upstreamType: type }) };
  return code === 429
    ? new GatewayError('upstream_rate_limited', `The Gemini upstream is rate limited: ${message}`, options)
    : new GatewayError('upstream_error', `The Gemini upstream reported an error: ${message}`, options);
}
