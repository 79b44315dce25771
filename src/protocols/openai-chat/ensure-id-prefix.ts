import type { RuntimeContext } from '../../core/runtime-context.ts';

/**
 * Clients recognise objects by id prefix (`chatcmpl-`, `resp_`); an id from a foreign upstream
 * (`msg_…` from Anthropic) is replaced rather than passed off as ours.
 */
export function ensureIdPrefix(id: string, prefix: string, context: RuntimeContext): string {
  return id.startsWith(prefix) && id.length > prefix.length ? id : context.generateId(prefix);
}
