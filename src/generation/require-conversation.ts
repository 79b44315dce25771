import { invalidRequest } from '../core/gateway-error.ts';
import type { RequestPeek } from '../protocols/protocol-codec.ts';

const SHAPES: Record<string, string> = {
  messages: 'an array of messages, e.g. [{"role":"user","content":"Hi"}]',
  input: 'a string or an array of input items',
  contents: 'an array of {role, parts} turns, e.g. [{"role":"user","parts":[{"text":"Hi"}]}]',
};

/**
 * Refuses a body without the field that carries the conversation, or with a field its protocol
 * refuses (see RequestPeek.invalidField), before any upstream call:
 * the passthrough lane never decodes the body, so without this the upstream would be paid to
 * say the same thing.
 */
export function requireConversation(peek: RequestPeek): void {
  const field = peek.missingField;
  if (field !== undefined) throw invalidRequest(`The request body needs a "${field}" field: ${SHAPES[field] ?? 'see the API reference'}.`, field);
  // The same for a value the protocol refuses that would otherwise reach the upstream (an output cap of 0).
  if (peek.invalidField !== undefined) throw invalidRequest(peek.invalidField.message, peek.invalidField.field);
}
