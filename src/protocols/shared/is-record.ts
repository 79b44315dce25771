/** A plain JSON object (not null, not an array): the first check of every tolerant read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
