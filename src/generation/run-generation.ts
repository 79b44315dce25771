import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import { authenticateCaller } from '../access/authenticate-caller.ts';
import type { Caller } from '../access/authenticate-key.ts';
import { authorizeModel } from '../access/authorize-model.ts';
import { checkProviderFeatures } from '../access/check-provider-features.ts';
import { formatWarning } from '../core/warning.ts';
import { withoutTools } from '../protocols/shared/collect-tool-features.ts';
import { admitGeneration, type Admission, type AdmissionDeps } from '../billing/admit-generation.ts';
import { billDeliveredUsage } from '../billing/bill-delivered-usage.ts';
import { recordGenerationUsage, type GenerationOutcome } from '../billing/record-generation-usage.ts';
import type { UsageWriter } from '../billing/usage-writer.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import { PhaseTiming, TIMING_REQUEST_HEADER } from '../core/phase-timing.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { ClientRequestInput, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import type { ClientWriter } from '../relay/client-writer.ts';
import { relayChat } from '../relay/relay-chat.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import { orderAttempts } from '../routing/order-attempts.ts';
import type { ConversationAffinity } from '../routing/conversation-affinity.ts';
import type { RelayCommit, RelayInput } from '../relay/relay-input.ts';
import { openAffinityTurn, type AffinityTurnStep } from './open-affinity-turn.ts';
import { openStatefulTurn, type StatefulTurn } from '../responses/open-stateful-turn.ts';
import type { StatefulResponses } from '../responses/stateful-responses.ts';
import { openCompactionItems, type CompactionSeal } from '../responses/compaction-seal.ts';
import { DecodeOnce } from './decode-once.ts';
import { requireConversation } from './require-conversation.ts';
import type { ClientConnection, GenerationRequest } from './generation-request.ts';
import { writeErrorReply } from './write-error-reply.ts';

export interface GenerationDeps extends AdmissionDeps {
  relay: RelayDeps;
  usageWriter: Pick<UsageWriter, 'record'>;
  logger: Logger;
  /** REVEAL_OTHER_GROUP_MODELS: tell a key a model exists in another group (default: the same 404 as an unknown model). */
  settings?: { revealOtherGroupModels?: boolean };
  /** Stateful Responses (`store`, `previous_response_id`); absent: the gateway keeps no turns. */
  responses?: StatefulResponses;
  /** Conversation affinity (AFFINITY_TTL_SECONDS); absent: every turn is routed afresh. */
  affinity?: ConversationAffinity;
  /** Seals and opens the gateway's compaction items (POST /v1/responses/compact); absent: none are opened. */
  compaction?: CompactionSeal;
}

/**
 * The generation pipeline, framework-free: authenticate (key, expiry, IP; usually done by the
 * framework from the headers alone, before the body was read), peek the body,
 * authorise the model, admit it under price, rate limits, spend caps and balance, relay it
 * over the ordered channels, settle the exact cost, and record one usage row whatever happened.
 * The request is decoded at most once, shared by the admission's estimate and the relay.
 * Errors before the reply is taken over are thrown for the framework to render in the
 * caller's shape; after, they are written here.
 */
export async function runGeneration(deps: GenerationDeps, request: GenerationRequest, connection: ClientConnection): Promise<void> {
  const startedAt = deps.runtime.now();
  // Only callers who ask (X-Switchyard-Timing) get a Server-Timing header, and pay for the marks.
  const timing = request.credentials.headers[TIMING_REQUEST_HEADER] === undefined ? undefined : new PhaseTiming();
  const { route, requestId } = request;
  // A request refused for its key is refused by the framework's key check before the body is read
  // (generation-routes.ts: an unknown key is only counted, a known one refused for its state or
  // address gets a usage row under that key).
  const caller: Caller = request.caller ?? authenticateCaller(deps.snapshot.current, deps.runtime.now(), request.credentials, route.credentials);
  const codec = getCodec(route.protocol);
  const peek = codec.peek(clientRequestInput(request, request.pathStream));
  let shared = new DecodeOnce(codec, clientRequestInput(request, peek.stream), deps.runtime);
  let model: string | null = request.pathModel ?? null;
  let admission: Admission | undefined;
  let writer: ClientWriter | undefined;
  let stateful: StatefulTurn | undefined;
  let bodyChanged = false;
  let featureWarnings: string[] = [];
  // Reads caller and model when called: the row names as much as was known by then.
  const record = (outcome: GenerationOutcome, warnings: string[]): void =>
    recordGenerationUsage(deps.usageWriter, {
      requestId,
      clientProtocol: route.protocol,
      surface: route.surface,
      transport: request.transport,
      caller,
      model,
      stream: peek.stream,
      startedAt,
      endedAt: deps.runtime.now(),
      clientIp: request.credentials.clientIp,
      outcome,
      warnings,
      payment: admission?.payment,
    });
  try {
    let body = requireObjectBody(request.body);
    model = requireModel(peek.model);
    requireConversation(peek);
    const features = checkProviderFeatures(peek.providerFeatures, caller.group);
    if (features.dropTools.length > 0) {
      // Declared tools the group may not use are left out; the body's text no longer matches it.
      body = withoutTools(body, features.dropTools);
      bodyChanged = true;
      shared = new DecodeOnce(codec, { ...clientRequestInput(request, peek.stream), body }, deps.runtime);
      featureWarnings = features.warnings.map(formatWarning);
    }
    let channels = authorizeModel(deps.snapshot.current, caller, model, route.surface, { revealOtherGroups: deps.settings?.revealOtherGroupModels === true });
    timing?.mark('auth');
    // The gateway's compaction items become their summaries before anything reads the input.
    const opened = route.protocol === 'openai-responses' && deps.compaction ? openCompactionItems(deps.compaction, caller.key.id, body) : undefined;
    if (opened) {
      body = opened;
      request.body = opened;
      request.rawBody = undefined;
      shared = new DecodeOnce(codec, clientRequestInput(request, peek.stream), deps.runtime);
    }
    if (route.protocol === 'openai-responses' && deps.responses) {
      stateful = await openStatefulTurn(deps.responses, {
        keyId: caller.key.id,
        model,
        body,
        stream: peek.stream,
        channels,
        now: deps.runtime.now,
        logger: deps.logger,
        requestId,
      });
      channels = stateful.channels;
      if (stateful.changed) {
        body = stateful.body;
        shared = new DecodeOnce(codec, { ...clientRequestInput(request, peek.stream), body }, deps.runtime);
      }
    }
    admission = await admitGeneration(deps, caller, model, shared.decode, stateful?.heldContextTokens);
    timing?.mark('admit');
    let ordered = orderAttempts(channels, deps.runtime.random);
    // A conversation the upstream keeps under one key is pinned already; affinity only orders the others.
    let affinity: AffinityTurnStep | undefined;
    if (deps.affinity && stateful?.pinnedKeyIndex === undefined) {
      affinity = await openAffinityTurn(deps.affinity, codec, {
        request: clientRequestInput(request, peek.stream),
        scope: caller.key.id,
        model,
        channels: ordered,
        logger: deps.logger,
        requestId,
      });
      if (affinity) ordered = affinity.channels;
    }
    const onCommit = commitListener(stateful, affinity);

    // The request's one AbortController: the client leaving, the relay's total deadline or a
    // malformed stream ends every upstream call of the request through it.
    const controller = new AbortController();
    writer = connection.takeOver(() => controller.abort());
    if (stateful) writer.tap = stateful.tap;
    // Built as one literal of the fields every request has, then the optional ones assigned:
    // conditional spreads (`...(x ? {} : {k: x})`) allocate a throwaway object each and copy
    // it through the slow generic path, several times per request.
    const encoderOptions: StreamEncoderOptions = { ...request.encoderOptions, includeUsage: peek.includeUsage };
    if (peek.customTools) encoderOptions.customTools = peek.customTools;
    if (stateful) encoderOptions.responseState = stateful.responseState;
    const relayInput: RelayInput = {
      requestId,
      clientProtocol: route.protocol,
      body,
      decodeClientRequest: shared.decode,
      stream: peek.stream,
      encoderOptions,
      publicModel: model,
      channels: ordered,
      forwardedHeaders: pickForwardedHeaders(request.credentials.headers),
      replyHeaders: { 'x-request-id': requestId, 'request-id': requestId },
      writer,
      controller,
      reasoningScope: caller.key.id,
    };
    // The route's warnings (a doubled /v1) first, then the declared tools the group's policy left out.
    const preRelayWarnings = [...(route.warnings ?? []), ...featureWarnings];
    if (preRelayWarnings.length > 0) relayInput.warnings = preRelayWarnings;
    if (request.rawBody !== undefined && !stateful?.changed && !bodyChanged) relayInput.rawBody = request.rawBody;
    if (timing) relayInput.timing = timing;
    if (stateful?.pinnedKeyIndex !== undefined) relayInput.pinnedKeyIndex = stateful.pinnedKeyIndex;
    if (affinity?.preferredKey !== undefined) relayInput.preferredKey = affinity.preferredKey;
    if (stateful) relayInput.carryReasoning = stateful.carryReasoning;
    if (onCommit) relayInput.onCommit = onCommit;
    // A stateful turn keeps its request to store it; otherwise, once a stream is committed, no
    // attempt can need the client's request again, and a long stream should not hold it (with
    // its parsed form, its text and its decode) to the end. What a cut stream is billed from,
    // the estimate, is taken first when the request was decoded anyway; if it never was, the
    // body stays for that estimate and only its text goes.
    if (!stateful) {
      const decodes = shared;
      const admitted = admission;
      relayInput.releaseRequest = () => {
        request.rawBody = undefined;
        relayInput.rawBody = undefined;
        if (!decodes.settled) return;
        admitted.estimate();
        decodes.release();
        request.body = undefined;
        relayInput.body = RELEASED_BODY;
        body = RELEASED_BODY;
      };
    }
    const result = await relayChat(deps.relay, relayInput);
    affinity?.settle(result, stateful?.responseId());

    if (result.error) writeErrorReply(writer, route.protocol, result.error, requestId);
    const settled = admission;
    // An upstream that answered spent the input, whatever it reported: what it left out is estimated.
    const answered = result.channel !== undefined && result.status === 200;
    const billed = billDeliveredUsage(result.usage, { answered, deliveredChars: result.deliveredChars, cut: answered && result.error !== undefined }, () => settled.estimate());
    const bounded = admission.boundUsage(billed.usage);
    const costMicros = await admission.finish(bounded.usage);
    record(
      { kind: 'relayed', result, firstByteAt: writer.firstByteAt, usage: bounded.usage, costMicros },
      [...admission.warnings, ...billed.warnings, ...bounded.warnings, ...(stateful?.warnings ?? [])],
    );
  } catch (thrown) {
    const error = thrown instanceof GatewayError ? thrown : internalError(deps.logger, requestId, thrown);
    await admission?.finish(undefined);
    record({ kind: 'refused', error }, [...(route.warnings ?? []), ...(admission?.warnings ?? [])]);
    if (writer === undefined) throw error;
    writeErrorReply(writer, route.protocol, error, requestId);
  }
}

/** What a request's body reads as once released (nothing reads it then). */
const RELEASED_BODY: Record<string, unknown> = Object.freeze({});

/** The relay's commit goes to the stateful turn and to affinity, whichever are on. */
function commitListener(stateful: StatefulTurn | undefined, affinity: AffinityTurnStep | undefined): ((commit: RelayCommit) => void) | undefined {
  if (!stateful) return affinity?.onCommit;
  if (!affinity) return stateful.onCommit;
  return (commit) => {
    stateful.onCommit(commit);
    affinity.onCommit(commit);
  };
}

function clientRequestInput(request: GenerationRequest, stream: boolean | undefined): ClientRequestInput {
  return {
    body: request.body,
    ...(request.pathModel === undefined ? {} : { pathModel: request.pathModel }),
    ...(stream === undefined ? {} : { pathStream: stream }),
  };
}

function internalError(logger: Logger, requestId: string, thrown: unknown): GatewayError {
  logger.error({ err: thrown, requestId }, 'unexpected failure while relaying');
  return new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.', { cause: thrown });
}

function requireObjectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

function requireModel(model: string | undefined): string {
  if (model === undefined || model === '') {
    throw invalidRequest('The request body needs a "model" field naming one of the models your key can use (see GET /v1/models).', 'model');
  }
  return model;
}

/** Client headers a same-protocol upstream must see unchanged (Claude Code's betas, API version). */
function pickForwardedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name of ['anthropic-version', 'anthropic-beta']) {
    const value = headers[name];
    if (typeof value === 'string') forwarded[name] = value;
  }
  return forwarded;
}
