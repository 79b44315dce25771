import type { ResponseFormat } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import { isRecord } from '../shared/is-record.ts';

/*
 * Both OpenAI APIs name the same three formats; a json_schema's name, schema and strict sit
 * in a nested `json_schema` object in Chat Completions and beside `type` in Responses.
 */

/** A client's format → canonical; `spec` is where its json_schema fields sit, `param` names the type field. */
export function decodeOpenAiResponseFormat(format: Record<string, unknown>, spec: Record<string, unknown>, param: string): ResponseFormat {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json' };
    case 'json_schema':
      return {
        type: 'json',
        ...(isRecord(spec.schema) ? { schema: spec.schema } : {}),
        ...(typeof spec.name === 'string' ? { name: spec.name } : {}),
        ...(typeof spec.strict === 'boolean' ? { strict: spec.strict } : {}),
      };
    default:
      throw invalidRequest(`'${param}' must be text, json_object or json_schema.`, param);
  }
}

/** Canonical → the wire format; `place` puts a json_schema's fields where this API wants them. */
export function encodeOpenAiResponseFormat(format: ResponseFormat, place: (spec: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> {
  if (format.type === 'text') return { type: 'text' };
  if (format.schema === undefined) return { type: 'json_object' };
  const spec: Record<string, unknown> = { name: format.name ?? 'response', schema: format.schema };
  if (format.strict !== undefined) spec.strict = format.strict;
  return { type: 'json_schema', ...place(spec) };
}
