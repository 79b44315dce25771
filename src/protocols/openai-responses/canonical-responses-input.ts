import { isRecord } from '../shared/is-record.ts';

/**
 * A turn's input items reduced to the fields the gateway reads (the Responses decoder's own
 * list, `decode-openai-responses-input.ts`), for keeping and replaying a turn. A client may hang
 * any amount of anything else on an item: the upstream never sees it on the translated lane and
 * the hold never counts it, so keeping it verbatim would let megabytes of junk be stored and
 * replayed for nothing. Item kinds the decoder drops (hosted-tool calls, newer kinds) go too.
 */
export function canonicalResponsesInput(items: readonly unknown[]): unknown[] {
  const kept: unknown[] = [];
  for (const item of items) {
    const canonical = canonicalItem(item);
    if (canonical !== undefined) kept.push(canonical);
  }
  return kept;
}

function canonicalItem(item: unknown): Record<string, unknown> | undefined {
  if (!isRecord(item)) return undefined;
  const type = item.type ?? (item.role === undefined ? undefined : 'message');
  switch (type) {
    case 'message':
      return pick(item, ['type', 'role', 'id'], { content: canonicalContent(item.content) });
    case 'function_call':
      return pick(item, ['type', 'id', 'call_id', 'name', 'arguments']);
    case 'custom_tool_call':
      return pick(item, ['type', 'id', 'call_id', 'name', 'input']);
    case 'function_call_output':
    case 'custom_tool_call_output':
      return pick(item, ['type', 'call_id'], { output: canonicalContent(item.output) });
    case 'reasoning': {
      const summary = Array.isArray(item.summary) ? item.summary.flatMap((entry) => (isRecord(entry) ? [pick(entry, ['type', 'text'])] : [])) : [];
      return pick(item, ['type', 'id', 'encrypted_content'], { summary });
    }
    case 'item_reference':
      return pick(item, ['type', 'id']);
    default:
      return undefined;
  }
}

const PART_FIELDS: Record<string, readonly string[]> = {
  input_text: ['type', 'text'],
  output_text: ['type', 'text'],
  text: ['type', 'text'],
  refusal: ['type', 'refusal'],
  input_image: ['type', 'image_url', 'detail', 'file_id'],
  input_file: ['type', 'filename', 'file_data', 'file_url', 'file_id'],
};

function canonicalContent(content: unknown): unknown {
  if (typeof content === 'string' || !Array.isArray(content)) return content;
  return content.map((part) => {
    if (!isRecord(part)) return part;
    const fields = typeof part.type === 'string' ? PART_FIELDS[part.type] : undefined;
    // A part of a kind the decoder refuses keeps only its type, so the refusal still names it.
    return pick(part, fields ?? ['type']);
  });
}

function pick(record: Record<string, unknown>, fields: readonly string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (record[field] !== undefined) picked[field] = record[field];
  for (const [field, value] of Object.entries(extra)) if (value !== undefined) picked[field] = value;
  return picked;
}
