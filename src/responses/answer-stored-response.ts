import { GatewayError } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import { getChannelAdapter } from '../channels/channel-registry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import { readUpstreamError } from '../relay/read-upstream-error.ts';
import type { UpstreamClient } from '../upstream/upstream-client.ts';
import type { StatefulResponses } from './stateful-responses.ts';
import { upstreamKeyHash } from './upstream-key-hash.ts';

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
  return answer;
}

async function askUpstream(access: StoredResponseAccess, turn: StoredResponse, method: 'GET' | 'DELETE'): Promise<{ status: number; body: unknown }> {
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
  const response = await access.upstream.send({ method, url: withPathSegment(target.url, turn.id), headers: target.headers, body: '', signal });
  if (response.statusCode >= 400) throw await readUpstreamError(response, getCodec('openai-responses'), channel.apiKeys);
  const text = await response.body.text();
  try {
    return { status: response.statusCode, body: JSON.parse(text) as unknown };
  } catch {
    throw new GatewayError('upstream_invalid_response', 'The upstream sent a reply that is not valid JSON.');
  }
}

/** `…/responses?api-version=x` → `…/responses/{id}?api-version=x`. */
function withPathSegment(url: string, id: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? '' : url.slice(queryAt);
  return `${path}/${encodeURIComponent(id)}${query}`;
}

export function responseNotFound(id: string): GatewayError {
  return new GatewayError('response_not_found', `Response with id '${id}' not found.`);
}
