/** At most this many identifiers are kept from one error body (a hostile host could send thousands). */
const MAX_CODES = 8;
/** Identifiers are short enum-like words; anything longer is prose, not a code. */
const MAX_CODE_LENGTH = 64;
const CODE_SHAPE = /^[A-Za-z0-9_.-]+$/;

/**
 * The structured identifiers in an upstream error body — OpenAI `error.type` / `error.code`,
 * Anthropic `error.type`, Gemini `error.status` and `error.details[].reason` — and never its
 * message. Failure classification reads only these: an upstream's message may quote what the
 * client sent (a field name, a prompt), so words in it prove nothing about the channel.
 */
export function extractUpstreamErrorCodes(body: unknown): string[] {
  const codes: string[] = [];
  const add = (value: unknown) => {
    if (codes.length >= MAX_CODES || typeof value !== 'string') return;
    if (value.length === 0 || value.length > MAX_CODE_LENGTH || !CODE_SHAPE.test(value)) return;
    codes.push(value);
  };
  let value = Array.isArray(body) ? body[0] : body;
  if (!isRecord(value)) return codes;
  if (isRecord(value.error)) value = value.error;
  else add(value.type);
  if (!isRecord(value)) return codes;
  add(value.type);
  add(value.code);
  add(value.status);
  if (Array.isArray(value.details)) {
    for (const detail of value.details.slice(0, MAX_CODES)) if (isRecord(detail)) add(detail.reason);
  }
  return codes;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
