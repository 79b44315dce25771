import { createHash } from 'node:crypto';
import { invalidRequest } from '../core/gateway-error.ts';
import type { StoredResponse } from '../domain/stored-response.ts';

/** `GET /v1/responses/{id}/input_items` query, as OpenAI documents it. */
export interface InputItemsQuery {
  after?: string;
  before?: string;
  /** 1–100, default 20. */
  limit: number;
  /** Default `desc` (newest first), as OpenAI. */
  order: 'asc' | 'desc';
}

export interface InputItemsPage {
  object: 'list';
  data: Record<string, unknown>[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** Reads the query tolerantly, refusing what OpenAI refuses (a limit outside 1–100, an unknown order). */
export function readInputItemsQuery(query: Record<string, unknown>): InputItemsQuery {
  const text = (name: string): string | undefined => {
    const value = query[name];
    const single = Array.isArray(value) ? value[0] : value;
    return typeof single === 'string' && single !== '' ? single : undefined;
  };
  const limitText = text('limit');
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw invalidRequest(`Invalid 'limit': ${JSON.stringify(limitText)}. Expected an integer from 1 to 100 (default 20).`, 'limit');
  }
  const order = text('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw invalidRequest(`Invalid 'order': ${JSON.stringify(order)}. Expected 'asc' or 'desc' (default 'desc').`, 'order');
  }
  const after = text('after');
  const before = text('before');
  return { limit, order, ...(after === undefined ? {} : { after }), ...(before === undefined ? {} : { before }) };
}

/**
 * The items used to generate a gateway-held response, oldest first: each earlier turn's input
 * and output (as the next turn replayed them) and then this turn's input, each with an id.
 * Items the client sent without one get a stable id derived from the turn and position, so
 * `after`/`before` cursors stay valid across calls.
 */
export function inputItemsOf(chain: StoredResponse[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  chain.forEach((turn, at) => {
    (turn.input ?? []).forEach((item, index) => items.push(normalizeItem(item, turn.id, index)));
    if (at === chain.length - 1) return;
    const output = turn.response?.output;
    if (Array.isArray(output)) output.forEach((item, index) => items.push(normalizeItem(item, `${turn.id}:output`, index)));
  });
  return items;
}

/** One page of `items` (oldest first) in OpenAI's list shape. */
export function pageInputItems(items: Record<string, unknown>[], query: InputItemsQuery): InputItemsPage {
  let list = query.order === 'asc' ? items : [...items].reverse();
  const position = (id: string, param: 'after' | 'before') => {
    const at = list.findIndex((item) => item.id === id);
    if (at < 0) throw invalidRequest(`No input item with id '${id}' in this response; use an id from an earlier page as '${param}'.`, param);
    return at;
  };
  if (query.after !== undefined) list = list.slice(position(query.after, 'after') + 1);
  let hasMore: boolean;
  let data: Record<string, unknown>[];
  if (query.before !== undefined) {
    // The items just before the cursor, in the same order.
    list = list.slice(0, position(query.before, 'before'));
    data = list.slice(Math.max(0, list.length - query.limit));
    hasMore = list.length > data.length;
  } else {
    data = list.slice(0, query.limit);
    hasMore = list.length > data.length;
  }
  return {
    object: 'list',
    data,
    first_id: typeof data[0]?.id === 'string' ? data[0].id : null,
    last_id: typeof data.at(-1)?.id === 'string' ? (data.at(-1)!.id as string) : null,
    has_more: hasMore,
  };
}

const ID_PREFIX: Record<string, string> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  custom_tool_call: 'ctc',
  custom_tool_call_output: 'ctco',
  reasoning: 'rs',
};

/** As OpenAI lists them: typed, with content parts for messages, an id and a status. */
function normalizeItem(item: unknown, turnId: string, index: number): Record<string, unknown> {
  const record: Record<string, unknown> =
    typeof item === 'object' && item !== null && !Array.isArray(item) ? { ...(item as Record<string, unknown>) } : { value: item };
  if (record.type === undefined && typeof record.role === 'string') record.type = 'message';
  if (record.type === 'message' && typeof record.content === 'string') {
    record.content = [{ type: record.role === 'assistant' ? 'output_text' : 'input_text', text: record.content }];
  }
  const type = typeof record.type === 'string' ? record.type : 'item';
  if (typeof record.id !== 'string' || record.id === '') {
    const digest = createHash('sha256').update(`${turnId}:${index}`, 'utf8').digest('hex').slice(0, 40);
    record.id = `${ID_PREFIX[type] ?? 'item'}_${digest}`;
  }
  if ((type === 'message' || type === 'function_call' || type === 'function_call_output') && record.status === undefined) record.status = 'completed';
  // Put id first, as OpenAI does.
  const { id, ...rest } = record;
  return { id, ...rest };
}
