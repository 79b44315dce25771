/** A plain JSON object (not null, not an array): the only shape Gemini uses for messages and parts. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
