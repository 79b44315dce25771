/** OpenAI's `GET /v1/models` shape. `created` is when the gateway last loaded its routes. */
export function encodeOpenaiModelList(models: string[], loadedAt: number) {
  const created = Math.floor(loadedAt / 1000);
  return {
    object: 'list' as const,
    data: models.map((id) => ({ id, object: 'model' as const, created, owned_by: 'switchyard' })),
  };
}

/**
 * Anthropic's shape, with its cursor pagination (`limit`, `after_id`, `before_id`) so the
 * SDK's auto-pager and Claude Code's gateway discovery both work.
 */
export function encodeAnthropicModelList(models: string[], loadedAt: number, query: Record<string, string | undefined>) {
  const createdAt = new Date(loadedAt).toISOString();
  const limit = clamp(Number(query.limit ?? 20), 1, 1000);
  let start = 0;
  let end = models.length;
  if (query.after_id !== undefined) start = models.indexOf(query.after_id) + 1;
  if (query.before_id !== undefined) end = Math.max(0, models.indexOf(query.before_id));
  const page = query.before_id !== undefined ? models.slice(Math.max(start, end - limit), end) : models.slice(start, start + limit);
  const data = page.map((id) => ({ type: 'model' as const, id, display_name: id, created_at: createdAt }));
  const hasMore = query.before_id !== undefined ? end - limit > start : start + limit < end;
  return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : min;
}
