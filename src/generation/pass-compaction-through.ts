import type { Caller } from '../access/authenticate-key.ts';
import { admitGeneration, planAdmission } from '../billing/admit-generation.ts';
import { estimateRequest } from '../billing/estimate-reservation.ts';
import { getChannelAdapter } from '../relay/channels/channel-registry.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import { convertOpenAiResponsesUsage } from '../protocols/openai-responses/index.ts';
import { isRecord } from '../protocols/shared/is-record.ts';
import { relayMedia } from '../relay/relay-media.ts';
import { openCompactionItems, type CompactionSeal } from '../responses/compaction-seal.ts';
import { orderAttempts } from '../relay/routing/order-attempts.ts';
import type { GenerationRequest } from './generation-request.ts';
import type { GenerationDeps } from './run-generation.ts';
import { settleUsage } from '../billing/settle-usage.ts';
import { WholeReplyLedger } from './whole-reply-ledger.ts';

/**
 * Whether `POST /v1/responses/compact` goes to the upstream's own endpoint: only when every
 * channel that may serve the model's next turn speaks OpenAI Responses (an OpenAI compaction item
 * is readable by OpenAI alone, so a model that may fail over elsewhere is compacted by the
 * gateway, whose item every upstream can continue from), and the conversation is in the body (a
 * `previous_response_id` names a turn the gateway may hold itself).
 */
export function compactsUpstream(channels: readonly Channel[], body: Record<string, unknown>): boolean {
  if (body.previous_response_id !== undefined && body.previous_response_id !== null) return false;
  return speaksResponsesEverywhere(channels);
}

/** Every channel is an OpenAI Responses upstream, which compacts itself (`/responses/compact`, `context_management`). */
export function speaksResponsesEverywhere(channels: readonly Channel[]): boolean {
  return (
    channels.length > 0 &&
    channels.every((channel) => channel.supportsResponses && getChannelAdapter(channel.provider).media?.operations.includes('responses/compact') === true)
  );
}

/** The fields OpenAI's compact endpoint takes (its reference, and what Codex sends it); a create request's others are left out. */
const COMPACT_FIELDS = [
  'model',
  'input',
  'instructions',
  'previous_response_id',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'service_tier',
  'tools',
  'parallel_tool_calls',
  'reasoning',
  'text',
];

export function compactRequestFields(body: Record<string, unknown>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of COMPACT_FIELDS) if (body[field] !== undefined) picked[field] = body[field];
  return picked;
}

export interface UpstreamCompaction {
  status: number;
  body: Record<string, unknown>;
  warnings: string[];
}

/**
 * The compaction passed through to OpenAI: the body as the client sent it (`sent`, its
 * compaction items opened) over the model's channels with failover, admitted and billed like any
 * generation (the upstream's `usage`, bounded by the hold), one usage row. The upstream's items
 * come back wrapped for the caller's key (`CompactionSeal.wrap`), so a later turn can hand them
 * to OpenAI exactly as issued and no other key can.
 */
export async function passCompactionThrough(
  deps: GenerationDeps & { compaction: CompactionSeal },
  request: GenerationRequest & { caller: Caller },
  model: string,
  channels: readonly Channel[],
  sent: Record<string, unknown>,
): Promise<UpstreamCompaction> {
  const ledger = new WholeReplyLedger(
    deps,
    { requestId: request.requestId, prefix: request.route.surface, credentials: request.credentials },
    'openai-responses',
    model,
  );
  ledger.caller = request.caller;
  ledger.transport = request.transport;
  try {
    // The gateway's own items become summaries, an upstream's go back as issued; a forged one is refused (and recorded).
    const opened = openCompactionItems(deps.compaction, request.caller.key.id, sent) ?? sent;
    const estimate = estimateOf(deps, opened);
    const admission = await admitGeneration(deps, planAdmission(deps, request.caller, model), () => estimate);
    ledger.admission = admission;
    const signal = new AbortController().signal;
    const relayed = await relayMedia(deps.relay, {
      operation: 'responses/compact',
      body: opened,
      publicModel: model,
      channels: orderAttempts(channels, deps.runtime.random),
      signal,
    });
    const reported = relayed.result === undefined ? undefined : convertOpenAiResponsesUsage(relayed.result.usage);
    const settled = settleUsage(admission, () => estimate, reported, { answered: relayed.result !== undefined, deliveredChars: 0 });
    const costMicros = await admission.finish(settled.usage);
    const warnings = [...admission.warnings, ...settled.warnings];
    ledger.record(
      { kind: 'relayed', result: { ...relayed, upstreamProtocol: 'openai-responses', warnings: [] }, firstByteAt: undefined, usage: settled.usage, costMicros },
      warnings,
    );
    if (relayed.result === undefined) throw relayed.error ?? new GatewayError('internal_error', 'The compaction relay ended without a result.');
    return { status: 200, body: wrapItems(deps.compaction, request.caller.key.id, relayed.result), warnings };
  } catch (thrown) {
    throw await ledger.refuse(thrown, 'a compaction');
  }
}

/** The hold and the rate limiter's input: the body read as a Responses request (no estimate if it cannot be). */
function estimateOf(deps: GenerationDeps, body: Record<string, unknown>) {
  const decoded = getCodec('openai-responses').decodeRequest({ body: { ...body, stream: false } }, deps.runtime);
  return estimateRequest(decoded.value);
}

/** The reply with each compaction item's upstream content wrapped for the key; everything else as the upstream sent it. */
function wrapItems(seal: CompactionSeal, keyId: string, reply: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(reply.output)) throw new GatewayError('upstream_invalid_response', 'The upstream sent a compaction reply without an output list.');
  const output = reply.output.map((item: unknown) => {
    if (!isRecord(item) || item.type !== 'compaction') return item;
    if (typeof item.encrypted_content !== 'string')
      throw new GatewayError('upstream_invalid_response', 'The upstream sent a compaction item without its encrypted_content.');
    return { ...item, encrypted_content: seal.wrap(keyId, item.encrypted_content) };
  });
  return { ...reply, output };
}
