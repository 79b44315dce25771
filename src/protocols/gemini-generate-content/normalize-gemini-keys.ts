import { isRecord } from '../shared/is-record.ts';

/**
 * Values whose keys belong to the caller, not to the Gemini schema: function arguments,
 * tool results and JSON Schemas. Their property names must reach the model untouched
 * (`user_id` is a real argument name, not a spelling of `userId`).
 */
const OPAQUE_KEYS = new Set(['args', 'response', 'parameters', 'parametersJsonSchema', 'responseSchema', 'responseJsonSchema', 'labels']);

function toCamelCase(key: string): string {
  return key.includes('_') ? key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()) : key;
}

/**
 * The REST API accepts snake_case (`system_instruction`, `inline_data`, `mime_type`, …) as well
 * as camelCase, and Google's own curl examples use it. Normalising once at the door lets every
 * reader below look for one spelling. When both spellings are present the camelCase one wins.
 * Copy-on-write: input that is already camelCase (every SDK, every upstream stream chunk) is
 * returned as is, without allocating.
 */
export function normalizeGeminiKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    let result: unknown[] | undefined;
    value.forEach((item, index) => {
      const normalized = normalizeGeminiKeys(item);
      if (normalized !== item) {
        result ??= value.slice();
        result[index] = normalized;
      }
    });
    return result ?? value;
  }
  if (!isRecord(value)) return value;
  let changed = false;
  const entries: Array<[string, unknown]> = [];
  for (const [key, inner] of Object.entries(value)) {
    const camel = toCamelCase(key);
    // A JSON `__proto__` key would replace the result's prototype; it is never a Gemini field.
    if (key === '__proto__' || (camel !== key && Object.hasOwn(value, camel))) {
      changed = true;
      continue;
    }
    const normalized = OPAQUE_KEYS.has(camel) ? inner : normalizeGeminiKeys(inner);
    if (camel !== key || normalized !== inner) changed = true;
    entries.push([camel, normalized]);
  }
  return changed ? Object.fromEntries(entries) : value;
}
