import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import { getChannelAdapter } from '../relay/channels/channel-registry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import { readUpstreamError } from '../relay/read-upstream-error.ts';
import type { UpstreamClient } from '../relay/channels/upstream-client.ts';
import { inputItemsOf, pageInputItems, readInputItemsQuery } from './list-input-items.ts';
import { chainTooLarge } from './plan-stateful-request.ts';
import type { StatefulResponses } from './stateful-responses.ts';
import { upstreamKeyHash } from './upstream-key-hash.ts';
import { channelSecrets } from '../relay/channels/auth/channel-secrets.ts';

export interface StoredResponseAccess {
  responses: StatefulResponses;
  channel(id: string): Channel | undefined;
  upstream: Pick<UpstreamClient, 'send'>;
  now(): number;
  /** Bounds an upstream read or delete. */
  timeoutMs: number;
}

/**
 * `GET` and `DELETE /v1/responses/{id}` for one API key. A turn the gateway keeps is answered
 * from the store; one an OpenAI upstream keeps is read or deleted there, with the channel and
 * key that created it. Anything else (another key's id, an expired or unknown one) is the same
 * 404 OpenAI gives for an unknown id, so a key learns nothing about other keys' responses.
 */
export async function answerStoredResponse(
  access: StoredResponseAccess,
  keyId: string,
  id: string,
  method: 'GET' | 'DELETE',
): Promise<{ status: number; body: unknown }> {
  const turn = await access.responses.repository.find(id, keyId, access.now());
  if (!turn) throw responseNotFound(id);
  if (turn.holder === 'gateway') {
    if (method === 'GET') return { status: 200, body: turn.response };
    await access.responses.repository.delete(id, keyId);
    return { status: 200, body: { id, object: 'response', deleted: true } };
  }
  const answer = await askUpstream(access, turn, method);
  if (method === 'DELETE') await access.responses.repository.delete(id, keyId);
  else refuseUnmeteredAnswer(id, answer.body);
  return answer;
}

/**
 * `GET /v1/responses/{id}/input_items` for one API key: the items used to generate the response
 * (for a gateway-held one, the replayed conversation and its own input), paged as OpenAI pages
 * them; an upstream-held one is listed by its upstream. Unknown, expired or another key's id:
 * the same 404 as `GET /v1/responses/{id}`.
 */
export async function answerInputItems(
  access: StoredResponseAccess,
  keyId: string,
  id: string,
  query: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  const page = readInputItemsQuery(query);
  const now = access.now();
  const turn = await access.responses.repository.find(id, keyId, now);
  if (!turn) throw responseNotFound(id);
  if (turn.holder === 'upstream') {
    const search = new URLSearchParams();
    if (page.after !== undefined) search.set('after', page.after);
    if (page.before !== undefined) search.set('before', page.before);
    search.set('limit', String(page.limit));
    search.set('order', page.order);
    return askUpstream(access, turn, 'GET', `/input_items?${search.toString()}`);
  }
  // The earlier turns, newest first until the first one that is gone (expired, deleted, upstream-held).
  const chain = [turn];
  let bytes = turn.sizeBytes;
  for (let previous = turn.previousResponseId; previous !== null && chain.length <= access.responses.maxChainTurns; ) {
    if (bytes > access.responses.maxChainBytes) throw chainTooLarge(access.responses.maxChainBytes);
    const earlier = await access.responses.repository.find(previous, keyId, now);
    if (!earlier || earlier.holder !== 'gateway') break;
    chain.push(earlier);
    bytes += earlier.sizeBytes;
    previous = earlier.previousResponseId;
  }
  return { status: 200, body: pageInputItems(inputItemsOf(chain.reverse()), page) };
}

async function askUpstream(
  access: StoredResponseAccess,
  turn: StoredResponse,
  method: 'GET' | 'DELETE',
  suffix = '',
): Promise<{ status: number; body: unknown }> {
  const channel = turn.channelId === null ? undefined : access.channel(turn.channelId);
  const apiKey = channel?.apiKeys.find((candidate) => upstreamKeyHash(candidate) === turn.upstreamKeyHash);
  if (!channel || apiKey === undefined) throw responseNotFound(turn.id);
  const signal = AbortSignal.timeout(access.timeoutMs);
  const target = await getChannelAdapter(channel.provider).buildRequest({
    channel,
    apiKey,
    protocol: 'openai-responses',
    upstreamModel: turn.model,
    stream: false,
    forwardedHeaders: {},
    body: '',
    signal,
  });
  const response = await access.upstream.send({ method, url: withPathSegment(target.url, turn.id, suffix), headers: target.headers, body: '', signal });
  if (response.statusCode >= 400) throw await readUpstreamError(response, getCodec('openai-responses'), channelSecrets(channel));
  const text = await response.body.text();
  try {
    return { status: response.statusCode, body: JSON.parse(text) as unknown };
  } catch {
    throw new GatewayError('upstream_invalid_response', 'The upstream sent a reply that is not valid JSON.');
  }
}

/**
 * `…/responses?api-version=x` → `…/responses/{id}?api-version=x`; a suffix (`/input_items?limit=20`)
 * goes after the id, its query joined to the channel's.
 */
function withPathSegment(url: string, id: string, suffix = ''): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? '' : url.slice(queryAt + 1);
  const suffixAt = suffix.indexOf('?');
  const suffixPath = suffixAt < 0 ? suffix : suffix.slice(0, suffixAt);
  const suffixQuery = suffixAt < 0 ? '' : suffix.slice(suffixAt + 1);
  const joined = [query, suffixQuery].filter((part) => part !== '').join('&');
  return `${path}/${encodeURIComponent(id)}${suffixPath}${joined === '' ? '' : `?${joined}`}`;
}

/**
 * A background response's answer was generated upstream after its create request had been
 * settled, so nothing was billed for it: the gateway refuses to create one, and does not hand
 * out one made before it did. Every other upstream-held response was created, and its whole
 * answer metered, through the gateway.
 */
function refuseUnmeteredAnswer(id: string, body: unknown): void {
  if (typeof body === 'object' && body !== null && (body as Record<string, unknown>).background === true) {
    throw invalidRequest(`Response '${id}' was created in background mode, whose answer the gateway never metered; it is not served.`);
  }
}

export function responseNotFound(id: string): GatewayError {
  return new GatewayError('response_not_found', `Response with id '${id}' not found.`);
}
