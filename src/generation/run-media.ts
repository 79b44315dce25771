import type { CallerCredentials } from '../access/authenticate-caller.ts';
import { authenticateCaller } from '../access/authenticate-caller.ts';
import type { Caller } from '../access/authenticate-key.ts';
import { authorizeModel } from '../access/authorize-model.ts';
import { admitGeneration, planAdmission } from '../billing/admit-generation.ts';
import { estimateRequest } from '../billing/estimate-reservation.ts';
import { resolvePrice } from '../access/resolve-price.ts';
import type { MediaOperation } from '../relay/channels/channel-adapter.ts';
import type { ChatRequest } from '../core/chat-request.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { MultipartUpload } from '../core/multipart-upload.ts';
import type { Usage } from '../core/usage.ts';
import type { ModelPrice } from '../domain/model-price.ts';
import { relayMedia, type MediaBytes, type MediaRelayInput } from '../relay/relay-media.ts';
import type { MediaWire } from '../core/image-result.ts';
import { orderAttempts } from '../relay/routing/order-attempts.ts';
import type { GenerationDeps } from './run-generation.ts';
import { WholeReplyLedger } from './whole-reply-ledger.ts';
import { tapMediaStream } from './tap-media-stream.ts';
import type { SseMessage } from '../protocols/sse/sse-message.ts';
import { DEFAULT_REPLY_LIMITS } from '../relay/reply-limits.ts';

export interface MediaCall {
  requestId: string;
  /** The path prefix surface (`antigravity`) or null for the root surfaces. */
  prefix: string | null;
  credentials: CallerCredentials;
  caller?: Caller;
  signal: AbortSignal;
}

/** One decoded media request: where it goes, what it holds and how its reply is billed. */
export interface MediaPlan {
  operation: MediaOperation;
  model: string;
  /** The JSON body to send on (ignored when `upload` is set). */
  body: Record<string, unknown>;
  upload?: MultipartUpload;
  /** `stream`: the reply's bytes go to the client as they arrive (speech audio). */
  reply?: 'whole' | 'stream';
  /** The request's text: the rate limiter's token estimate and the hold's text input. */
  promptText: string;
  /** The body for a channel speaking another wire (images on Gemini and Vertex); see `MediaRelayInput.bodyFor`. */
  bodyFor?: MediaRelayInput['bodyFor'];
  uncarriedReason?: string;
  /** The answering channel's JSON in the client's shape (a translated image reply); as sent when absent. */
  present?(json: Record<string, unknown>, wire: MediaWire): Record<string, unknown>;
  /** The most the held images, audio or search units can cost (priced by the model's media price). */
  held?(price: ModelPrice): Pick<Usage, 'images' | 'media'> | undefined;
  /** The usage billed for the answering channel's reply; clamps are named in `warnings`. */
  billed(
    reply: { json: Record<string, unknown> | undefined; other: MediaBytes | undefined; wire: MediaWire; upstreamModel: string | undefined },
    price: ModelPrice | undefined,
    warnings: string[],
  ): Usage;
  /**
   * For a reply streamed as SSE (partial images): each event as it passes to the client, and the
   * usage billed once the stream ends (what was delivered by then). Used instead of `billed`.
   */
  streamed?: { onEvent(message: SseMessage): void; billed(price: ModelPrice | undefined, warnings: string[]): Usage };
}

export interface MediaAnswer {
  headers: Record<string, string>;
  /** Exactly one of these: the upstream's JSON, or its other bytes (a transcript as text, audio). */
  json?: Record<string, unknown>;
  other?: MediaBytes;
}

/**
 * A media request (images, audio, moderation, rerank) through the same stages as generation:
 * authenticate, decode (`decode`, which throws the caller's 400), authorise the model for the key's
 * group, admit (rate limits, spend caps, balance) holding the dearest the reply can cost, relay over
 * the model's channels with failover and circuits, settle what the answering channel's reply is
 * billed and record one usage row. Only the answering attempt is billed, so a failed-over request
 * is billed once.
 */
export async function runMedia(deps: GenerationDeps, call: MediaCall, clientProtocol: string, decode: () => MediaPlan): Promise<MediaAnswer> {
  const ledger = new WholeReplyLedger(deps, call, clientProtocol, null);
  try {
    const caller = call.caller ?? authenticateCaller(deps.snapshot.current, deps.runtime.now(), call.credentials, 'bearer');
    ledger.caller = caller;
    const plan = decode();
    const model = plan.model;
    ledger.model = model;
    const channels = authorizeModel(deps.snapshot.current, caller, model, call.prefix, { revealOtherGroups: deps.settings?.revealOtherGroupModels === true });
    const price = resolvePrice(deps.snapshot.current, model, deps.access.strictPricing, caller.group.name, deps.runtime.now());
    const held = price === undefined ? undefined : plan.held?.(price);
    const admission = await admitGeneration(deps, planAdmission(deps, caller, model), () => estimateRequest(textAsChat(model, plan.promptText)), held);
    ledger.admission = admission;

    const relayed = await relayMedia(deps.relay, {
      operation: plan.operation,
      body: plan.body,
      ...(plan.upload === undefined ? {} : { upload: plan.upload }),
      ...(plan.reply === undefined ? {} : { reply: plan.reply }),
      ...(plan.bodyFor === undefined ? {} : { bodyFor: plan.bodyFor }),
      ...(plan.uncarriedReason === undefined ? {} : { uncarriedReason: plan.uncarriedReason }),
      publicModel: model,
      channels: orderAttempts(channels, deps.runtime.random),
      signal: call.signal,
    });
    const warnings = [...admission.warnings];
    const streamed = plan.streamed;
    if (streamed !== undefined && relayed.other?.stream !== undefined) {
      // Settled when the stream ends: the client is billed for the images it was sent.
      const settle = async () => {
        const usage = streamed.billed(price, warnings);
        const costMicros = await admission.finish(usage);
        ledger.record(
          { kind: 'relayed', result: { ...relayed, upstreamProtocol: clientProtocol, warnings: [] }, firstByteAt: undefined, usage, costMicros },
          warnings,
        );
      };
      const stream = tapMediaStream(relayed.other.stream, deps.relay.replyLimits ?? DEFAULT_REPLY_LIMITS, streamed.onEvent, settle);
      // A client gone before the stream was handed over: settle now rather than at the hold's expiry.
      if (call.signal.aborted) stream.destroy();
      else call.signal.addEventListener('abort', () => stream.destroy(), { once: true });
      return { headers: { 'x-request-id': call.requestId }, other: { contentType: relayed.other.contentType, stream } };
    }
    let usage: Usage | undefined;
    let failure = relayed.error;
    const answered = relayed.result !== undefined || relayed.other !== undefined;
    if (answered) {
      try {
        usage = plan.billed(
          { json: relayed.result, other: relayed.other, wire: relayed.wire ?? 'openai', upstreamModel: relayed.upstreamModel },
          price,
          warnings,
        );
        if (relayed.result !== undefined && plan.present !== undefined) relayed.result = plan.present(relayed.result, relayed.wire ?? 'openai');
      } catch (error) {
        failure =
          error instanceof GatewayError ? error : new GatewayError('upstream_invalid_response', `The upstream /v1/${plan.operation} reply could not be read.`);
      }
    }
    const costMicros = await admission.finish(usage);
    ledger.record(
      { kind: 'relayed', result: { ...relayed, upstreamProtocol: clientProtocol, warnings: [] }, firstByteAt: undefined, usage, costMicros },
      warnings,
    );
    if (failure !== undefined || !answered) throw failure ?? new GatewayError('internal_error', `The /v1/${plan.operation} relay ended without a result.`);
    const headers: Record<string, string> = { 'x-request-id': call.requestId };
    if (warnings.length > 0) headers['x-switchyard-warnings'] = [...new Set(warnings)].join(', ');
    return { headers, ...(relayed.result === undefined ? {} : { json: relayed.result }), ...(relayed.other === undefined ? {} : { other: relayed.other }) };
  } catch (thrown) {
    throw await ledger.refuse(thrown, clientProtocol);
  }
}

/** The request's text as one user turn with no text output allowance: the hold's text part and the rate limiter's input estimate. */
export function textAsChat(model: string, text: string): ChatRequest {
  return { model, system: [], messages: [{ role: 'user', content: [{ type: 'text', text }] }], tools: [], maxOutputTokens: 0, stream: false };
}
