import { authenticateCaller } from '../access/authenticate-caller.ts';
import type { Caller } from '../access/authenticate-key.ts';
import { authorizeModel } from '../access/authorize-model.ts';
import { estimateRequest } from '../billing/estimate-reservation.ts';
import type { Channel } from '../domain/channel.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import { isRecord } from '../protocols/shared/is-record.ts';
import { inputItems } from '../responses/replay-items.ts';
import type { GenerationRequest } from './generation-request.ts';
import { speaksResponsesEverywhere } from './pass-compaction-through.ts';
import { runCompaction, type CompactionReply } from './run-compaction.ts';
import type { GenerationDeps } from './run-generation.ts';

/**
 * What `context_management: [{type: "compaction", compact_threshold}]` does to a Responses turn:
 * `pass` leaves the body alone (every channel of the model speaks Responses, which compacts
 * itself); `continue` runs the turn on `body` (the field taken off, the input compacted when it
 * was over the threshold, `item` then the compaction item its output starts with); `failed` is
 * the compaction's error reply, for the turn to answer with.
 */
export type ThresholdOutcome =
  | { kind: 'pass' }
  | { kind: 'continue'; body: Record<string, unknown>; item?: Record<string, unknown> }
  | { kind: 'failed'; reply: CompactionReply };

/** The request's compaction threshold in tokens, when it asks for server-side compaction. */
export function compactionThreshold(body: unknown): number | undefined {
  if (!isRecord(body) || !Array.isArray(body.context_management)) return undefined;
  for (const entry of body.context_management) {
    if (isRecord(entry) && entry.type === 'compaction' && typeof entry.compact_threshold === 'number' && entry.compact_threshold > 0)
      return entry.compact_threshold;
  }
  return undefined;
}

/**
 * Server-side compaction on upstreams that lack it. When the input's estimated tokens pass the
 * threshold, the conversation is compacted as `POST /v1/responses/compact` would (its own
 * generation and usage row, under the request id plus `-compact`), and the turn continues on the
 * compacted input: the user messages, the sealed compaction item (which the pipeline opens into
 * the summary) and the items after the last user message (the tool exchange in progress, kept
 * verbatim so the model can continue it). Requests it cannot judge (bad key, unknown model,
 * undecodable body) go on unchanged for the pipeline to refuse in its own words.
 */
export async function compactOnThreshold(deps: GenerationDeps, request: GenerationRequest, threshold: number): Promise<ThresholdOutcome> {
  const body = request.body as Record<string, unknown>;
  let caller: Caller;
  let channels: readonly Channel[];
  try {
    caller = request.caller ?? authenticateCaller(deps.snapshot.current, deps.runtime.now(), request.credentials, request.route.credentials);
    channels = authorizeModel(deps.snapshot.current, caller, String(body.model), request.route.surface, {
      revealOtherGroups: deps.settings?.revealOtherGroupModels === true,
    });
  } catch {
    return { kind: 'pass' };
  }
  // Without a seal the gateway cannot compact: the field goes on, and a translated lane warns that it dropped it.
  if (speaksResponsesEverywhere(channels) || !deps.compaction) return { kind: 'pass' };
  const { context_management: _handled, ...rest } = body;
  if (estimatedInputTokens(deps, rest) <= threshold) return { kind: 'continue', body: rest };
  const answer = await runCompaction(deps, { ...request, requestId: `${request.requestId}-compact`, body: rest, caller, rawBody: undefined }, true);
  const output = (answer.body as { output?: unknown }).output;
  const item = answer.status === 200 && Array.isArray(output) ? output.at(-1) : undefined;
  if (!isRecord(item) || item.type !== 'compaction') return { kind: 'failed', reply: answer };
  const items = inputItems(rest.input);
  const lastUser = items.findLastIndex((one) => isRecord(one) && one.role === 'user');
  return { kind: 'continue', body: { ...rest, input: [...(output as unknown[]), ...items.slice(lastUser + 1)] }, item };
}

/** The input's tokens as the admission estimates them; 0 when the body cannot be decoded (the pipeline says why). */
function estimatedInputTokens(deps: GenerationDeps, body: Record<string, unknown>): number {
  try {
    return estimateRequest(getCodec('openai-responses').decodeRequest({ body }, deps.runtime).value).inputTokens;
  } catch {
    return 0;
  }
}
