import type { JsonReply } from './json-reply.ts';

type Json = Record<string, unknown>;

/**
 * What OpenAI keeps of Responses created with `store` on (the default): per API key (standing
 * in for the organisation), so another key's id is unknown — 400 for `previous_response_id`,
 * 404 for GET and DELETE, with OpenAI's own texts.
 */
export interface ResponsesMemory {
  /** A refusal when `previous_response_id` names nothing this key stored. */
  checkPrevious(key: string | undefined, body: unknown): JsonReply | undefined;
  /** A refusal when an `item_reference` in `input` names no output item of a response this key stored. */
  checkReferences(key: string | undefined, body: unknown): JsonReply | undefined;
  remember(key: string | undefined, body: unknown, response: Json): void;
  /** GET/DELETE of a response, or (`inputItems`) the list of its input items, one page of all of them. */
  answer(key: string | undefined, method: string, id: string, inputItems?: boolean): JsonReply;
  /** Ids currently stored (tests). */
  size(): number;
}

export function createResponsesMemory(): ResponsesMemory {
  const stored = new Map<string, { key: string; response: Json; input: Json[] }>();
  const owned = (key: string | undefined, id: string) => {
    const entry = stored.get(id);
    return entry !== undefined && entry.key === (key ?? '') ? entry : undefined;
  };
  const openAiError = (status: number, message: string, param: string | null, code: string | null): JsonReply => ({
    status,
    body: { error: { message, type: 'invalid_request_error', param, code } },
    headers: {},
  });
  return {
    checkPrevious(key, body) {
      const previous = typeof body === 'object' && body !== null ? (body as Json).previous_response_id : undefined;
      if (typeof previous !== 'string' || owned(key, previous)) return undefined;
      return openAiError(400, `Previous response with id '${previous}' not found.`, 'previous_response_id', 'previous_response_not_found');
    },
    checkReferences(key, body) {
      const input = typeof body === 'object' && body !== null ? (body as Json).input : undefined;
      if (!Array.isArray(input)) return undefined;
      for (const item of input) {
        if (typeof item !== 'object' || item === null || (item as Json).type !== 'item_reference') continue;
        const id = (item as Json).id;
        const known = [...stored.values()].some(
          (entry) => entry.key === (key ?? '') && Array.isArray(entry.response.output) && (entry.response.output as Json[]).some((output) => output.id === id),
        );
        if (!known) return openAiError(404, `Item with id '${String(id)}' not found.`, 'input', null);
      }
      return undefined;
    },
    remember(key, body, response) {
      if (typeof body === 'object' && body !== null && (body as Json).store === false) return;
      const raw = typeof body === 'object' && body !== null ? (body as Json).input : undefined;
      const items: unknown[] =
        typeof raw === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: raw }] }] : Array.isArray(raw) ? raw : [];
      const input = items.map((item, index) => ({ id: `msg_sim_${index}`, ...(item as Json) }));
      if (typeof response.id === 'string') stored.set(response.id, { key: key ?? '', response, input });
    },
    answer(key, method, id, inputItems) {
      const entry = owned(key, id);
      if (!entry) return openAiError(404, `Response with id '${id}' not found.`, null, null);
      if (inputItems) {
        const data = [...entry.input].reverse();
        return { status: 200, body: { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false }, headers: {} };
      }
      if (method === 'DELETE') {
        stored.delete(id);
        return { status: 200, body: { id, object: 'response', deleted: true }, headers: {} };
      }
      return { status: 200, body: entry.response, headers: {} };
    },
    size: () => stored.size,
  };
}
