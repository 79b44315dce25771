import type { ClientRequestInput, RequestPeek } from '../protocol-codec.ts';
import { findInvalidCount } from './find-invalid-count.ts';
import { isRecord } from './is-record.ts';

/**
 * The peek of protocols that name the model and the stream choice in the body (all but Gemini).
 * `conversationField` is the field every request of the protocol needs (`messages`, `input`);
 * `countFields` are its output caps and numbers of alternatives (see findInvalidCount).
 */
export function peekBody(
  input: ClientRequestInput,
  includeUsage: (body: Record<string, unknown>) => boolean,
  conversationField: string,
  countFields: readonly string[] = [],
): RequestPeek {
  const body = input.body;
  if (!isRecord(body)) return { model: undefined, stream: false, includeUsage: false, missingField: conversationField };
  const peek: RequestPeek = {
    model: typeof body.model === 'string' ? body.model : undefined,
    stream: body.stream === true,
    includeUsage: includeUsage(body),
    missingField: lacks(body, conversationField) ? conversationField : undefined,
  };
  const invalid = findInvalidCount(body, countFields);
  if (invalid !== undefined) peek.invalidField = invalid;
  return peek;
}

/** Absent or null: what the providers refuse as a missing required parameter. */
export function lacks(body: Record<string, unknown>, field: string): boolean {
  return body[field] === undefined || body[field] === null;
}
