import type { RuntimeContext } from '../../core/runtime-context.ts';

const INVALID_ID_CHARACTERS = /[^a-zA-Z0-9_-]/g;

/**
 * Anthropic rejects tool ids outside `^[a-zA-Z0-9_-]+$`, and foreign upstreams use dots,
 * colons or nothing at all. Invalid characters become `_` (deterministic, so a call and its
 * result still match); an empty id gets a fresh `toolu_` id.
 */
export function sanitizeAnthropicToolId(id: string, context: RuntimeContext): string {
  const cleaned = id.replace(INVALID_ID_CHARACTERS, '_');
  return cleaned === '' ? context.generateId('toolu_') : cleaned;
}

/** One mapping per request, so an empty id used by a call and its result maps to one new id. */
export function createToolIdSanitizer(context: RuntimeContext): (id: string) => string {
  const seen = new Map<string, string>();
  return (id) => {
    const known = seen.get(id);
    if (known !== undefined) return known;
    const sanitized = sanitizeAnthropicToolId(id, context);
    seen.set(id, sanitized);
    return sanitized;
  };
}
