import { invalidRequest } from '../../core/gateway-error.ts';

/**
 * The passthrough lane never decodes the body, so a pathologically nested one first shows up
 * here, as the serializer running out of stack: that is the client's fault, not a crash.
 */
export function serializeClientBody(body: Record<string, unknown>): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    if (error instanceof RangeError) throw invalidRequest('The request body is nested too deeply to process.');
    throw error;
  }
}

/**
 * Adds a member to the top-level JSON object `raw` (known to be an object with members), so a
 * passthrough body keeps the client's own text (re-serialising a 50 KB body costs ~120 µs).
 */
export function appendJsonMember(raw: string, member: string): string {
  const end = raw.lastIndexOf('}');
  return `${raw.slice(0, end)},${member}${raw.slice(end)}`;
}

/**
 * The common passthrough rewrite: the client's text when the model name stays, otherwise a
 * copy with the upstream's model name.
 */
export function rewriteBodyModel(body: Record<string, unknown>, rawBody: string | undefined, upstreamModel: string): string {
  if (rawBody !== undefined && body.model === upstreamModel) return rawBody;
  return serializeClientBody({ ...body, model: upstreamModel });
}
