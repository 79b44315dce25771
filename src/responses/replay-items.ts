/**
 * Responses items as a later turn sends them back: the shapes a replayed conversation is built
 * from, shared by the gateway-held chains (`plan-stateful-request.ts`) and a WebSocket's
 * in-memory chain (`socket-response-chain.ts`).
 */

/** A request's `input` as a list of items (a string is one user message). */
export function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

/**
 * A kept response's output, as input items for the next turn. Item ids are the gateway's own
 * (an upstream never issued them), so message and call items go without them; reasoning items
 * keep theirs with the sealed state they carry.
 */
export function replayedOutput(response: Record<string, unknown> | null): unknown[] {
  const output = response?.output;
  if (!Array.isArray(output)) return [];
  return output.map(replayedItem);
}

export function replayedItem(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const record = item as Record<string, unknown>;
  if (record.type === 'reasoning') return record;
  const { id: _id, ...rest } = record;
  return rest;
}
