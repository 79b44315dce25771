import type { IncomingHttpHeaders } from 'node:http';
import type { StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import type { ClientWriter } from '../relay/client-writer.ts';
import type { RelayCommit, RelayInput } from '../relay/relay-input.ts';
import type { StatefulTurn } from '../responses/open-stateful-turn.ts';
import type { Admission } from '../billing/admit-generation.ts';
import { microsToUsd } from '../domain/money.ts';
import { RELEASED_BODY, type GenerationTurn } from './generation-turn.ts';
import { settleUsage } from '../billing/settle-usage.ts';
import type { AffinityTurnStep } from './open-affinity-turn.ts';

/**
 * What the relay needs of an admitted, ordered turn. Built as one literal of the fields every
 * request has, then the optional ones assigned: conditional spreads (`...(x ? {} : {k: x})`)
 * allocate a throwaway object each and copy it through the slow generic path, several times
 * per request.
 */
export function buildRelayInput(turn: GenerationTurn, controller: AbortController, takeOverReply: () => ClientWriter): RelayInput {
  const { request, peek, stateful, affinity } = turn;
  const encoderOptions: StreamEncoderOptions = { ...request.encoderOptions, includeUsage: peek.includeUsage };
  const admission = turn.admission as Admission;
  const estimate = () => turn.estimate();
  if (turn.reportCost && peek.stream) {
    // As OpenRouter: asking for the cost asks for the final usage chunk too, and the cost is in it.
    encoderOptions.includeUsage = true;
    encoderOptions.priceUsage = (usage, deliveredChars) =>
      microsToUsd(admission.quote(settleUsage(admission, estimate, usage, { answered: true, deliveredChars: deliveredChars ?? 0 }).usage));
  }
  if (peek.customTools) encoderOptions.customTools = peek.customTools;
  if (stateful) encoderOptions.responseState = stateful.responseState;
  const input: RelayInput = {
    requestId: request.requestId,
    clientProtocol: request.route.protocol,
    body: turn.body,
    decodeClientRequest: turn.decodes.decode,
    stream: peek.stream,
    encoderOptions,
    publicModel: turn.model as string,
    channels: turn.channels,
    forwardedHeaders: pickForwardedHeaders(request.credentials.headers),
    replyHeaders: { 'x-request-id': request.requestId, 'request-id': request.requestId },
    // Taken over last: every field before it is plain data, so nothing can refuse once the reply is ours.
    writer: takeOverReply(),
    controller,
    reasoningScope: turn.caller.key.id,
  };
  if (request.rawBody !== undefined && !stateful?.changed && !turn.bodyChanged) input.rawBody = request.rawBody;
  if (turn.timing) input.timing = turn.timing;
  if (stateful?.pinnedKeyIndex !== undefined) input.pinnedKeyIndex = stateful.pinnedKeyIndex;
  if (affinity?.preferredKey !== undefined) input.preferredKey = affinity.preferredKey;
  if (stateful) input.carryReasoning = stateful.carryReasoning;
  const onCommit = commitListener(stateful, affinity);
  if (onCommit) input.onCommit = onCommit;
  // A plain reply shows its cost, settled exactly as after the relay (settleUsage on an answered reply).
  input.quoteCost = (usage, deliveredChars) => admission.quote(settleUsage(admission, estimate, usage, { answered: true, deliveredChars }).usage);
  if (turn.reportCost) input.reportCost = true;
  // The route's warnings (a doubled /v1) first, then the declared tools the group's policy left out.
  const preRelayWarnings = [...(request.route.warnings ?? []), ...turn.featureWarnings];
  if (preRelayWarnings.length > 0) input.warnings = preRelayWarnings;
  if (!stateful) input.releaseRequest = () => releaseRequest(turn, input);
  return input;
}

/**
 * A stateful turn keeps its request to store it; otherwise, once a stream is committed, no
 * attempt can need the client's request again, and a long stream should not hold it (with its
 * parsed form, its text and its decode) to the end. What a cut stream is billed from, the
 * estimate, is taken first when the request was decoded anyway; if it never was, the body stays
 * for that estimate and only its text goes.
 */
function releaseRequest(turn: GenerationTurn, input: RelayInput): void {
  turn.request.rawBody = undefined;
  input.rawBody = undefined;
  if (!turn.decodes.settled) return;
  turn.estimate();
  turn.decodes.release();
  turn.request.body = undefined;
  input.body = RELEASED_BODY;
  turn.body = RELEASED_BODY;
}

/** The relay's commit goes to the stateful turn and to affinity, whichever are on. */
function commitListener(stateful: StatefulTurn | undefined, affinity: AffinityTurnStep | undefined): ((commit: RelayCommit) => void) | undefined {
  if (!stateful) return affinity?.onCommit;
  if (!affinity) return stateful.onCommit;
  return (commit) => {
    stateful.onCommit(commit);
    affinity.onCommit(commit);
  };
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
