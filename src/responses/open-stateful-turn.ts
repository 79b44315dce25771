import type { Logger } from 'pino';
import { invalidRequest } from '../core/gateway-error.ts';
import { formatWarning, type Warning } from '../core/warning.ts';
import type { Channel } from '../domain/channel.ts';
import type { StoredResponse } from '../domain/stored-response.ts';
import { canonicalResponsesInput } from '../protocols/openai-responses/index.ts';
import type { ResponseStateEcho } from '../protocols/protocol-codec.ts';
import type { ReplyTap } from '../relay/client-writer.ts';
import type { RelayCommit } from '../relay/relay-input.ts';
import { MAX_BILLED_TOKENS } from '../domain/money.ts';
import { captureResponseObject } from './capture-response-object.ts';
import { planStatefulRequest, previousNotFound, type StatefulPlan } from './plan-stateful-request.ts';
import type { StatefulResponses } from './stateful-responses.ts';
import { upstreamKeyHash } from './upstream-key-hash.ts';

export interface StatefulTurnInput {
  keyId: string;
  /** The public model asked for. */
  model: string;
  body: Record<string, unknown>;
  stream: boolean;
  /** The channels that may serve the model for this key, in no particular order. */
  channels: Channel[];
  now: () => number;
  logger: Logger;
  requestId: string;
}

/** One Responses request's stateful part, wired into the pipeline. */
export interface StatefulTurn {
  body: Record<string, unknown>;
  /** The body differs from the client's text (do not forward the raw body). */
  changed: boolean;
  /** The channels to try: all of them, or only the one that keeps the conversation. */
  channels: Channel[];
  /** With a pinned conversation: the only upstream key that may be used. */
  pinnedKeyIndex?: number;
  /**
   * Input tokens the upstream will bill for the context it keeps of a pinned chain (0 for any
   * other turn, whose context is in its body): added to what the request reserves.
   */
  heldContextTokens: number;
  /**
   * A kept turn needs the upstream's reasoning state in its output (sealed), whether or not
   * the client asked for encrypted reasoning: replaying it is what hands the state back.
   */
  carryReasoning: boolean;
  /**
   * What a reply the gateway builds (any upstream but an OpenAI Responses passthrough, whose
   * reply is the upstream's own) says of the turn: `store: true` when the gateway keeps it, and
   * the `previous_response_id` it continues.
   */
  responseState: ResponseStateEcho;
  /** Goes on the client writer: sees the reply and keeps the turn before the reply ends. */
  tap: ReplyTap;
  /** Goes to the relay: which channel, key and lane answered. */
  onCommit(commit: RelayCommit): void;
  /** Reply-side warnings (a turn that could not be kept), for the usage row. */
  readonly warnings: string[];
  /** The id of the response the client received, once its reply is whole. */
  responseId(): string | undefined;
}

/**
 * Opens the stateful side of a Responses request: resolves `previous_response_id` (replayed
 * or pinned), and arranges for the turn to be kept when the reply is whole. A turn served on
 * the passthrough lane by an OpenAI Responses upstream is kept there (the gateway remembers
 * only channel and key); any other is kept by the gateway. The turn is written before the
 * reply's last bytes, so a client that asks for it right after its reply always finds it.
 */
export async function openStatefulTurn(responses: StatefulResponses, input: StatefulTurnInput): Promise<StatefulTurn> {
  const plan = await planStatefulRequest(responses, input.keyId, input.body, input.now());
  const warnings: string[] = [];
  let channels = input.channels;
  let pinnedKeyIndex: number | undefined;
  if (plan.pin) {
    const pin = plan.pin;
    const channel = input.channels.find((candidate) => candidate.id === pin.channelId);
    if (!channel) {
      throw invalidRequest(
        `Response '${pin.responseId}' is kept by the upstream that created it, which does not serve model "${input.model}" for this key; continue the conversation with model "${pin.model}".`,
        'previous_response_id',
      );
    }
    const index = channel.apiKeys.findIndex((apiKey) => upstreamKeyHash(apiKey) === pin.upstreamKeyHash);
    // The operator removed the upstream key that keeps it: the upstream will not find it either.
    if (index < 0) throw previousNotFound(pin.responseId, ' (the upstream account that kept it is no longer configured)');
    channels = [channel];
    pinnedKeyIndex = index;
  }

  const capture = captureResponseObject(input.stream);
  let committed: RelayCommit | undefined;
  const warn = (warning: Warning) => warnings.push(formatWarning(warning));
  const keep = async (): Promise<void> => {
    const response = capture.result();
    if (!plan.store || !committed || response === undefined || typeof response.id !== 'string') return;
    const record = turnRecord(responses, plan, input, committed, response);
    if (record.sizeBytes > responses.maxTurnBytes) {
      warn({ type: 'unsupported', feature: 'store', detail: `the turn is ${record.sizeBytes} bytes, over the ${responses.maxTurnBytes} the gateway keeps` });
      return;
    }
    try {
      await responses.repository.insert(record);
      responses.keyBytes.added(input.keyId, record.sizeBytes);
    } catch (error) {
      input.logger.warn({ err: error, requestId: input.requestId }, 'could not keep a Responses turn');
      warn({ type: 'unsupported', feature: 'store', detail: 'the turn could not be kept' });
    }
  };

  return {
    body: plan.body,
    changed: plan.changed,
    channels,
    ...(pinnedKeyIndex === undefined ? {} : { pinnedKeyIndex }),
    heldContextTokens: plan.pin?.contextTokens ?? 0,
    carryReasoning: plan.store,
    responseState: { store: plan.store, previousResponseId: plan.previousResponseId },
    tap: { head: capture.head, observe: capture.observe, beforeEnd: keep },
    onCommit(commit) {
      committed = commit;
    },
    warnings,
    responseId() {
      const id = capture.result()?.id;
      return typeof id === 'string' ? id : undefined;
    },
  };
}

function turnRecord(
  responses: StatefulResponses,
  plan: StatefulPlan,
  input: StatefulTurnInput,
  committed: RelayCommit,
  response: Record<string, unknown>,
): StoredResponse {
  const createdAt = input.now();
  const base = {
    id: response.id as string,
    keyId: input.keyId,
    previousResponseId: plan.previousResponseId,
    model: input.model,
    createdAt,
    expiresAt: createdAt + responses.retentionMs,
  };
  // The body went to an OpenAI Responses host as the client sent it (store on): the host keeps it.
  if (committed.passthrough && committed.protocol === 'openai-responses') {
    return {
      ...base,
      holder: 'upstream',
      channelId: committed.channel.id,
      upstreamKeyHash: upstreamKeyHash(committed.apiKey),
      input: null,
      response: null,
      sizeBytes: 0,
      contextTokens: contextTokensOf(response) ?? plan.pin?.contextTokens ?? null,
    };
  }
  const kept = { ...response, store: true, previous_response_id: plan.previousResponseId };
  // Only what the gateway reads of the input is kept: fields it ignores never reached the
  // upstream or the hold, and must not be stored and replayed either.
  const turnInput = canonicalResponsesInput(plan.turnInput);
  const sizeBytes = Buffer.byteLength(JSON.stringify(turnInput), 'utf8') + Buffer.byteLength(JSON.stringify(kept), 'utf8');
  return { ...base, holder: 'gateway', channelId: null, upstreamKeyHash: null, input: turnInput, response: kept, sizeBytes };
}

/**
 * What a turn leaves in its chain's context, from the usage of the response object: its input
 * (the upstream counts the context before it in) plus its output; undefined without usage.
 */
function contextTokensOf(response: Record<string, unknown>): number | undefined {
  const usage = response.usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { input_tokens: input, output_tokens: output } = usage as Record<string, unknown>;
  if (typeof input !== 'number' || typeof output !== 'number' || !Number.isFinite(input + output)) return undefined;
  return Math.max(0, Math.min(Math.floor(input + output), MAX_BILLED_TOKENS));
}
