import type { Logger } from 'pino';
import { authorizeModel } from '../access/authorize-model.ts';
import { checkProviderFeatures } from '../access/check-provider-features.ts';
import { resolvePrice } from '../access/resolve-price.ts';
import { formatWarning } from '../core/warning.ts';
import { withoutTools } from '../protocols/shared/collect-tool-features.ts';
import { openCompactionItems, type CompactionSeal } from '../responses/compaction-seal.ts';
import { admitGeneration, planAdmission, type Admission, type AdmissionDeps } from '../billing/admit-generation.ts';
import type { UsageWriter } from '../billing/usage-writer.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { RequestPeek } from '../protocols/protocol-codec.ts';
import { DecodeOnce } from '../protocols/decode-once.ts';
import type { ClientWriter } from '../relay/client-writer.ts';
import { relayChat, type RelayInput, type RelayResult } from '../relay/relay-chat.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import type { ConversationAffinity } from '../relay/routing/conversation-affinity.ts';
import { orderAttempts } from '../relay/routing/order-attempts.ts';
import { openStatefulTurn } from '../responses/open-stateful-turn.ts';
import type { StatefulResponses } from '../responses/stateful-responses.ts';
import { buildRelayInput } from './build-relay-input.ts';
import type { ClientConnection, GenerationRequest } from './generation-request.ts';
import { GenerationTurn } from './generation-turn.ts';
import { openAffinityTurn } from './open-affinity-turn.ts';
import { settleUsage } from '../billing/settle-usage.ts';
import { writeErrorReply } from './write-error-reply.ts';
import type { ProgressBook } from '../kv/progress-book.ts';
import { trackStreamProgress } from './track-stream-progress.ts';
import type { OpenRequests } from './open-requests.ts';

export interface GenerationDeps extends AdmissionDeps {
  relay: RelayDeps;
  usageWriter: Pick<UsageWriter, 'record'>;
  /** Keep the ledger: one row per upstream attempt and per payer (issue 27), in the usage row's batch; absent: none is kept. */
  keepLedger?: boolean;
  logger: Logger;
  /** REVEAL_OTHER_GROUP_MODELS: tell a key a model exists in another group (default: the same 404 as an unknown model). */
  settings?: { revealOtherGroupModels?: boolean };
  /** Stateful Responses (`store`, `previous_response_id`); absent: the gateway keeps no turns. */
  responses?: StatefulResponses;
  /** Conversation affinity (AFFINITY_TTL_SECONDS); absent: every turn is routed afresh. */
  affinity?: ConversationAffinity;
  /** Seals and opens the gateway's compaction items (POST /v1/responses/compact); absent: none are opened. */
  compaction?: CompactionSeal;
  /** The requests relaying now, for a drain that runs out of time to end them in their protocol (absent: none kept). */
  openRequests?: OpenRequests;
  /** Streams' progress kept in Redis for the other instances to bill should this one die (absent: no shared Redis). */
  progress?: ProgressBook;
}

/**
 * The generation pipeline, framework-free, one named phase after another: authenticate and
 * peek (`new GenerationTurn`; the key is usually checked by the framework from the headers
 * alone, before the body was read), authorize the model, open the stateful turn (Responses),
 * decode (only when the admission needs the estimate: a passthrough request without limits is
 * never decoded here, and its attempts decode it only if they translate), admit under price,
 * rate limits, spend caps and balance, order the channels, relay, settle the exact cost and
 * record one usage row whatever happened. Errors before the reply is taken over are thrown for
 * the framework to render in the caller's shape; after, they are written here.
 */
export async function runGeneration(deps: GenerationDeps, request: GenerationRequest, connection: ClientConnection): Promise<void> {
  const turn = new GenerationTurn(deps, request);
  try {
    authorize(deps, turn);
    openCompaction(deps, turn);
    await openStateful(deps, turn);
    const plan = planAdmission(deps, turn.caller, turn.model as string, turn.price);
    // The decode step: only when the admission needs the estimate (the turn keeps it).
    if (plan.needsEstimate) turn.estimate();
    turn.admission = await admitGeneration(deps, plan, () => turn.estimate());
    turn.timing?.mark('admit');
    await order(deps, turn);
    // Awaited here, not in a phase function: a stream suspends every async frame above the
    // relay for its whole life, so the phases around it are synchronous.
    const input = takeOver(deps, turn, connection);
    const result = await relayChat(deps.relay, input).finally(() => deps.openRequests?.delete(input.controller));
    await settle(turn, result);
  } catch (thrown) {
    await refuse(deps, turn, thrown);
  }
}

/** The body is an object naming a model and a conversation, and the caller's group may use the model. */
function authorize(deps: GenerationDeps, turn: GenerationTurn): void {
  turn.body = requireObjectBody(turn.request.body);
  const model = requireModel(turn.peek.model);
  turn.model = model;
  requireConversation(turn.peek);
  const features = checkProviderFeatures(turn.peek.providerFeatures, turn.caller.group);
  if (features.dropTools.length > 0) {
    // Declared tools the group may not use are left out; the body's text no longer matches it.
    turn.body = withoutTools(turn.body, features.dropTools);
    turn.bodyChanged = true;
    turn.decodes = new DecodeOnce(turn.codec, { ...turn.clientInput(turn.peek.stream), body: turn.body }, deps.runtime);
    turn.featureWarnings = features.warnings.map(formatWarning);
  }
  // OpenRouter's `usage: {"include": true}` asks for the cost in the reply; no upstream knows the field.
  const costAsked = turn.request.route.protocol === 'openai-chat' ? takeUsageAccounting(turn.body) : undefined;
  if (costAsked) {
    turn.body = costAsked.body;
    turn.bodyChanged = true;
    turn.reportCost = costAsked.include;
    turn.decodes = new DecodeOnce(turn.codec, { ...turn.clientInput(turn.peek.stream), body: turn.body }, deps.runtime);
  }
  const snapshot = deps.snapshot.current;
  turn.channels = authorizeModel(snapshot, turn.caller, model, turn.request.route.surface, {
    revealOtherGroups: deps.settings?.revealOtherGroupModels === true,
  });
  // The model's sell price now: without one, strict pricing refuses it here (403 model_not_priced).
  turn.price = resolvePrice(snapshot, model, deps.access.strictPricing, turn.caller.group.name, deps.runtime.now());
  turn.timing?.mark('auth');
}

/** Responses only: the gateway's compaction items become their summaries before anything reads the input. */
function openCompaction(deps: GenerationDeps, turn: GenerationTurn): void {
  if (turn.request.route.protocol !== 'openai-responses' || !deps.compaction) return;
  const opened = openCompactionItems(deps.compaction, turn.caller.key.id, turn.body);
  if (!opened) return;
  turn.body = opened;
  turn.request.body = opened;
  turn.request.rawBody = undefined;
  turn.decodes = new DecodeOnce(turn.codec, turn.clientInput(turn.peek.stream), deps.runtime);
}

/** Responses only: `previous_response_id` replayed or pinned, and the turn kept from the reply (responses/). */
async function openStateful(deps: GenerationDeps, turn: GenerationTurn): Promise<void> {
  if (turn.request.route.protocol !== 'openai-responses' || !deps.responses) return;
  const stateful = await openStatefulTurn(deps.responses, {
    keyId: turn.caller.key.id,
    model: turn.model as string,
    body: turn.body,
    stream: turn.peek.stream,
    channels: turn.channels,
    now: deps.runtime.now,
    logger: deps.logger,
    requestId: turn.request.requestId,
  });
  turn.stateful = stateful;
  turn.channels = stateful.channels;
  if (!stateful.changed) return;
  turn.body = stateful.body;
  turn.decodes = new DecodeOnce(turn.codec, { ...turn.clientInput(turn.peek.stream), body: stateful.body }, deps.runtime);
}

/** Priority tiers and weights, then conversation affinity (a conversation pinned to a key is ordered already). */
async function order(deps: GenerationDeps, turn: GenerationTurn): Promise<void> {
  // The codec names the conversation (or none) before the channels are ordered: a turn without one skips affinity.
  const request = deps.affinity && turn.stateful?.pinnedKeyIndex === undefined ? turn.clientInput(turn.peek.stream) : undefined;
  const hint = request && turn.codec.affinityHint?.(request);
  turn.channels = orderAttempts(turn.channels, deps.runtime.random);
  if (!deps.affinity || !request || hint === undefined) return;
  turn.affinity = await openAffinityTurn(deps.affinity, hint, {
    request,
    scope: turn.caller.key.id,
    model: turn.model as string,
    channels: turn.channels,
    logger: deps.logger,
    requestId: turn.request.requestId,
  });
  if (turn.affinity) turn.channels = turn.affinity.channels;
}

/**
 * Takes the reply over and builds the relay's input. The request's one AbortController: the
 * client leaving, the relay's total deadline or a malformed stream ends every upstream call of
 * the request through it.
 */
function takeOver(deps: GenerationDeps, turn: GenerationTurn, connection: ClientConnection): RelayInput {
  const controller = new AbortController();
  // Counted open from here (a drain that runs out of time ends it): nothing below refuses.
  deps.openRequests?.add(controller);
  // The reply is taken over while the input is built (buildRelayInput: plain data, nothing in it refuses).
  const input = buildRelayInput(turn, controller, () => {
    const writer = connection.takeOver(() => controller.abort());
    turn.writer = writer;
    if (turn.stateful) writer.tap = turn.stateful.tap;
    return writer;
  });
  const book = deps.progress;
  if (book) input.watchStream = (stream) => void (turn.progress = trackStreamProgress(book, turn, stream));
  return input;
}

/**
 * After the relay: affinity learns who served, a failure is written in the client's protocol,
 * what was delivered is billed (an upstream that answered spent the input: what it left out is
 * estimated) and the row is recorded.
 */
async function settle(turn: GenerationTurn, result: RelayResult): Promise<void> {
  turn.affinity?.settle(result, turn.stateful?.responseId());
  const writer = turn.writer as ClientWriter;
  if (result.error) writeErrorReply(writer, turn.request.route.protocol, result.error, turn.request.requestId);
  const admission = turn.admission as Admission;
  // Billed already by the instance that took this one for dead (a stall): not again, and no second row.
  if (!(await billsHere(turn))) return admission.forgo();
  const answered = result.channel !== undefined && result.status === 200;
  const cut = answered && result.error !== undefined;
  const bounded = settleUsage(admission, () => turn.estimate(), result.usage, { answered, deliveredChars: result.deliveredChars, cut });
  const costMicros = await admission.finish(bounded.usage);
  turn.record({ kind: 'relayed', result, firstByteAt: writer.firstByteAt, usage: bounded.usage, costMicros, reported: result.usage }, [
    ...admission.warnings,
    ...bounded.warnings,
    ...(turn.stateful?.warnings ?? []),
  ]);
}

/** A refusal (or an unexpected failure): the hold released, the row recorded, the error thrown or written. */
async function refuse(deps: GenerationDeps, turn: GenerationTurn, thrown: unknown): Promise<void> {
  const error = thrown instanceof GatewayError ? thrown : internalError(deps.logger, turn.request.requestId, thrown);
  await ((await billsHere(turn)) ? turn.admission?.finish(undefined) : turn.admission?.forgo());
  turn.record({ kind: 'refused', error }, [...(turn.request.route.warnings ?? []), ...(turn.admission?.warnings ?? [])]);
  if (turn.writer === undefined) throw error;
  writeErrorReply(turn.writer, turn.request.route.protocol, error, turn.request.requestId);
}

/** A stream's progress record removed; false when another instance had claimed it and billed the stream (progress-book.ts). */
async function billsHere(turn: GenerationTurn): Promise<boolean> {
  const progress = turn.progress;
  turn.progress = undefined;
  return progress === undefined || (await progress.close());
}

function internalError(logger: Logger, requestId: string, thrown: unknown): GatewayError {
  logger.error({ err: thrown, requestId }, 'unexpected failure while relaying');
  return new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.', { cause: thrown });
}

function requireObjectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

const SHAPES: Record<string, string> = {
  messages: 'an array of messages, e.g. [{"role":"user","content":"Hi"}]',
  input: 'a string or an array of input items',
  contents: 'an array of {role, parts} turns, e.g. [{"role":"user","parts":[{"text":"Hi"}]}]',
};

/**
 * Refuses a body without the field that carries the conversation, or with a field its protocol
 * refuses (see RequestPeek.invalidField), before any upstream call:
 * the passthrough lane never decodes the body, so without this the upstream would be paid to
 * say the same thing.
 */
export function requireConversation(peek: RequestPeek): void {
  const field = peek.missingField;
  if (field !== undefined) throw invalidRequest(`The request body needs a "${field}" field: ${SHAPES[field] ?? 'see the API reference'}.`, field);
  // The same for a value the protocol refuses that would otherwise reach the upstream (an output cap of 0).
  if (peek.invalidField !== undefined) throw invalidRequest(peek.invalidField.message, peek.invalidField.field);
}

/** Takes OpenRouter's `usage` accounting field off an OpenAI chat body (no upstream knows it); undefined when it has none. */
export function takeUsageAccounting(body: Record<string, unknown>): { body: Record<string, unknown>; include: boolean } | undefined {
  if (!('usage' in body)) return undefined;
  const { usage, ...rest } = body;
  const include = typeof usage === 'object' && usage !== null && (usage as Record<string, unknown>).include === true;
  return { body: rest, include };
}

function requireModel(model: string | undefined): string {
  if (model === undefined || model === '') {
    throw invalidRequest('The request body needs a "model" field naming one of the models your key can use (see GET /v1/models).', 'model');
  }
  return model;
}
