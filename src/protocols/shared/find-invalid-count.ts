import { isRecord } from './is-record.ts';

/** A field whose value the protocol refuses, with the message saying why. */
export interface InvalidField {
  field: string;
  message: string;
}

/**
 * The first of `fields` (output caps, numbers of alternatives) in `body` whose value is not a
 * whole number of at least 1; absent and null count as not given. Such a value reserves
 * nothing for output (a cap of 0 or -1, a count of 0) or means something else upstream
 * (`"100"`, 0.5), while the provider may still answer: refused before any upstream call, on
 * every lane. `prefix` names where the object sits (`generationConfig.`).
 */
export function findInvalidCount(body: unknown, fields: readonly string[], prefix = ''): InvalidField | undefined {
  if (!isRecord(body)) return undefined;
  for (const field of fields) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) continue;
    const shown = JSON.stringify(value) ?? String(value);
    return {
      field: `${prefix}${field}`,
      message: `"${prefix}${field}" must be a whole number of at least 1 (a JSON number, not a string); got ${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown}.`,
    };
  }
  return undefined;
}
