import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import { inputItems, replayedItem, replayedOutput } from './replay-items.ts';
import type { StatefulResponses } from './stateful-responses.ts';

/** What a Responses request asks of the gateway's memory, and the body to relay for it. */
export interface StatefulPlan {
  /** The client's body, or (continuing a gateway-held chain) one whose `input` replays it. */
  body: Record<string, unknown>;
  /** The body differs from the client's: its raw text must not be forwarded. */
  changed: boolean;
  /** Keep this turn (`store` is true unless the client said false, as on OpenAI). */
  store: boolean;
  previousResponseId: string | null;
  /** This turn's own input, as Responses items: what a gateway-held turn keeps. */
  turnInput: unknown[];
  /**
   * The chain is kept by an OpenAI Responses upstream: only this channel and key can continue
   * it. `contextTokens`: what the upstream will bill again as input for the context it keeps.
   */
  pin?: { channelId: string; upstreamKeyHash: string; responseId: string; model: string; contextTokens: number };
}

/**
 * Resolves `previous_response_id` for one API key. A chain the gateway holds is replayed into
 * `input` (earlier turns' input and output items, oldest first, then this turn's input) and
 * `previous_response_id` is removed, so any upstream can serve the turn; a chain an OpenAI
 * upstream holds is left as it is and pinned to that channel and key. Another key's id, an
 * expired or deleted one, is "not found", exactly as OpenAI answers an unknown id.
 */
export async function planStatefulRequest(
  responses: StatefulResponses,
  keyId: string,
  clientBody: Record<string, unknown>,
  now: number,
): Promise<StatefulPlan> {
  const store = clientBody.store !== false;
  const previousResponseId = readPreviousResponseId(clientBody);
  if (store) await responses.keyBytes.check(keyId);
  let turnInput = inputItems(clientBody.input);
  let body = clientBody;
  const resolved = await resolveItemReferences(responses, keyId, turnInput, now);
  if (resolved) {
    turnInput = resolved;
    body = { ...clientBody, input: resolved };
  }
  const plan: StatefulPlan = { body, changed: resolved !== undefined, store, previousResponseId, turnInput };
  if (previousResponseId === null) return plan;

  const previous = await responses.repository.find(previousResponseId, keyId, now);
  if (!previous) throw previousNotFound(previousResponseId);
  if (previous.holder === 'upstream') {
    if (previous.channelId === null || previous.upstreamKeyHash === null) throw previousNotFound(previousResponseId);
    const contextTokens = previous.contextTokens ?? UNKNOWN_CONTEXT_TOKENS;
    return {
      ...plan,
      pin: { channelId: previous.channelId, upstreamKeyHash: previous.upstreamKeyHash, responseId: previous.id, model: previous.model, contextTokens },
    };
  }

  const chain = await readChain(responses, keyId, previous, now);
  const input: unknown[] = [];
  for (const turn of chain) input.push(...(turn.input ?? []), ...replayedOutput(turn.response));
  input.push(...turnInput);
  const { previous_response_id: _dropped, ...rest } = body;
  return { ...plan, body: { ...rest, input }, changed: true };
}

/**
 * The context assumed for an upstream-held turn stored before its token count was kept: the
 * context window of the larger models served, so such a chain is not continued on a hold of
 * its new input alone.
 */
export const UNKNOWN_CONTEXT_TOKENS = 200_000;

/** The chain from its first turn to `last`, read by following `previousResponseId`. */
async function readChain(responses: StatefulResponses, keyId: string, last: StoredResponse, now: number): Promise<StoredResponse[]> {
  const chain = [last];
  let turn = last;
  let bytes = last.sizeBytes;
  while (turn.previousResponseId !== null) {
    // Checked as the chain is read, so an oversize chain is refused before it is all in memory.
    if (bytes > responses.maxChainBytes) throw chainTooLarge(responses.maxChainBytes);
    if (chain.length >= responses.maxChainTurns) {
      throw invalidRequest(
        `This conversation is longer than the ${responses.maxChainTurns} turns the gateway replays; start a new one, sending the history you need in input.`,
        'previous_response_id',
      );
    }
    const earlier = await responses.repository.find(turn.previousResponseId, keyId, now);
    if (!earlier) throw previousNotFound(turn.previousResponseId, ' (an earlier turn of this conversation expired or was deleted)');
    if (earlier.holder !== 'gateway') {
      throw invalidRequest(
        `Response '${earlier.id}', earlier in this conversation, is kept by the upstream that created it and cannot be replayed to another; continue that conversation with model "${earlier.model}".`,
        'previous_response_id',
      );
    }
    chain.push(earlier);
    bytes += earlier.sizeBytes;
    turn = earlier;
  }
  if (bytes > responses.maxChainBytes) throw chainTooLarge(responses.maxChainBytes);
  return chain.reverse();
}

/** How many of a key's newest turns an `item_reference` is looked up in. */
export const ITEM_REFERENCE_SCAN_TURNS = 50;

/**
 * `{"type": "item_reference", "id": …}` items (the Vercel AI SDK sends earlier reasoning and
 * messages this way when `store` is on) naming an output item of one of this key's gateway-held
 * turns are replaced by that item, as it would be replayed, so any upstream gets the reasoning
 * state it carries. References the gateway does not hold stay (an OpenAI upstream resolves its
 * own). Undefined when nothing was replaced.
 */
async function resolveItemReferences(responses: StatefulResponses, keyId: string, items: unknown[], now: number): Promise<unknown[] | undefined> {
  const referenceId = (item: unknown): string | undefined => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
    const record = item as Record<string, unknown>;
    return record.type === 'item_reference' && typeof record.id === 'string' ? record.id : undefined;
  };
  if (!items.some((item) => referenceId(item) !== undefined)) return undefined;
  const held = new Map<string, unknown>();
  for (const turn of await responses.repository.recent(keyId, now, ITEM_REFERENCE_SCAN_TURNS)) {
    if (turn.holder !== 'gateway' || !Array.isArray(turn.response?.output)) continue;
    for (const output of turn.response.output as unknown[]) {
      const id = typeof output === 'object' && output !== null ? (output as Record<string, unknown>).id : undefined;
      if (typeof id === 'string' && !held.has(id)) held.set(id, replayedItem(output));
    }
  }
  let replaced = false;
  const resolved = items.map((item) => {
    const id = referenceId(item);
    if (id === undefined || !held.has(id)) return item;
    replaced = true;
    return held.get(id);
  });
  return replaced ? resolved : undefined;
}

function readPreviousResponseId(body: Record<string, unknown>): string | null {
  const value = body.previous_response_id;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value === '') {
    throw invalidRequest("'previous_response_id' must be the id of an earlier response (a string like resp_…).", 'previous_response_id');
  }
  return value;
}

/** A conversation whose kept turns are past RESPONSES_MAX_CHAIN_BYTES: 429, not replayed. */
export function chainTooLarge(limitBytes: number): GatewayError {
  return new GatewayError(
    'stored_responses_limit',
    `This conversation's stored turns are larger than the ${limitBytes} bytes the gateway replays; start a new one, sending the history you need in input.`,
    { param: 'previous_response_id' },
  );
}

export function previousNotFound(id: string, why = ''): GatewayError {
  return new GatewayError('previous_response_not_found', `Previous response with id '${id}' not found${why}.`, { param: 'previous_response_id' });
}
