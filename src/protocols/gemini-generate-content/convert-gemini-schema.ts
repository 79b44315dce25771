import { isRecord } from '../shared/is-record.ts';

/** Keys whose value is a map of property name → schema. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
/** Keys whose value is one schema. */
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not']);
/** Keys whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/**
 * Gemini `parameters` / `responseSchema` use an OpenAPI 3.0 subset: upper-case type names
 * (`"STRING"`, `"OBJECT"`), `nullable: true` instead of a `"null"` type, and Gemini's own
 * `propertyOrdering`. Every other protocol speaks JSON Schema, so convert: lower-case the
 * types, fold `nullable` into the type, and drop `propertyOrdering`, which only Gemini reads.
 * Unknown keywords are kept; they are harmless in JSON Schema.
 */
export function convertGeminiSchema(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema)) return {};
  return convertNode(schema);
}

function convertNode(node: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '__proto__' || key === 'nullable' || key === 'propertyOrdering') continue;
    if (key === 'type') {
      if (value === 'TYPE_UNSPECIFIED') continue;
      result.type = convertType(value);
    } else if (SCHEMA_MAPS.has(key) && isRecord(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(value)) {
        if (name === '__proto__') continue;
        map[name] = isRecord(inner) ? convertNode(inner) : inner;
      }
      result[key] = map;
    } else if (SCHEMA_VALUES.has(key) && isRecord(value)) {
      result[key] = convertNode(value);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      result[key] = value.map((inner) => (isRecord(inner) ? convertNode(inner) : inner));
    } else {
      result[key] = value;
    }
  }
  if (node.nullable === true) {
    const type = result.type;
    if (typeof type === 'string' && type !== 'null') result.type = [type, 'null'];
    else if (Array.isArray(type) && !type.includes('null')) result.type = [...type, 'null'];
  }
  return result;
}

function convertType(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map((inner) => (typeof inner === 'string' ? inner.toLowerCase() : inner));
  return value;
}
