import type { ProtocolId } from '../protocols/protocol-codec.ts';

/** The JSON fields that carry generated text or tool arguments in each protocol's stream events. */
const DELTA_FIELDS: Record<ProtocolId, readonly string[]> = {
  'openai-chat': ['"content":"', '"reasoning_content":"', '"arguments":"'],
  'openai-responses': ['"delta":"'],
  'anthropic-messages': ['"text":"', '"thinking":"', '"partial_json":"'],
  'gemini-generate-content': ['"text":"'],
};

/**
 * Characters of generated text in one passthrough event, found by scanning for the protocol's
 * delta fields instead of parsing the JSON: the passthrough lane only needs this when a stream is
 * cut before the upstream reported usage, and then it bills what the client actually received.
 */
export function countDeltaChars(protocol: ProtocolId, data: string): number {
  let total = 0;
  for (const field of DELTA_FIELDS[protocol]) {
    let at = data.indexOf(field);
    while (at !== -1) {
      const start = at + field.length;
      let end = start;
      while (end < data.length) {
        const code = data.charCodeAt(end);
        if (code === 92 /* \ */) end += 2;
        else if (code === 34 /* " */) break;
        else end += 1;
      }
      total += end - start;
      at = data.indexOf(field, end);
    }
  }
  return total;
}
