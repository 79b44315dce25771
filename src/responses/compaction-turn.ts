/**
 * Compaction as a turn (Codex ≥ 0.16x, "remote compaction v2"): a `response.create` whose input
 * ends with `{"type": "compaction_trigger"}` asks for the conversation before it to be compacted,
 * and its response's output is exactly one compaction item. The gateway answers it with the same
 * summary `POST /v1/responses/compact` makes (see generation/run-compaction.ts).
 */
export function hasCompactionTrigger(body: Record<string, unknown>): boolean {
  const input = body.input;
  return Array.isArray(input) && input.some(isTrigger);
}

/** The body without its trigger item(s): the conversation to compact. */
export function withoutCompactionTrigger(body: Record<string, unknown>): Record<string, unknown> {
  return { ...body, input: (body.input as unknown[]).filter((item) => !isTrigger(item)) };
}

/**
 * The events of a completed compaction turn, as the Responses SSE stream carries them: created,
 * the compaction item added and done, completed with it as the only output.
 */
export function compactionTurnStream(response: { id: string; created_at: number; model: unknown; item: Record<string, unknown>; usage: unknown }): string {
  const base = {
    id: response.id,
    object: 'response',
    created_at: response.created_at,
    model: response.model,
    error: null,
    incomplete_details: null,
    previous_response_id: null,
    store: false,
  };
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: { ...base, status: 'in_progress', output: [], usage: null } },
    { type: 'response.in_progress', response: { ...base, status: 'in_progress', output: [], usage: null } },
    { type: 'response.output_item.added', output_index: 0, item: response.item },
    { type: 'response.output_item.done', output_index: 0, item: response.item },
    { type: 'response.completed', response: { ...base, status: 'completed', output: [response.item], usage: response.usage } },
  ];
  return events.map((event, index) => `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`).join('');
}

function isTrigger(item: unknown): boolean {
  return typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'compaction_trigger';
}
