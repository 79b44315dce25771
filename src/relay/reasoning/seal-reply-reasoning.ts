import type { AssistantContentPart, ReasoningPart } from '../../core/chat-request.ts';
import type { ChatResponse } from '../../core/chat-response.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import type { Warning } from '../../core/warning.ts';
import type { ProtocolId, UpstreamProtocolId } from '../../protocols/protocol-codec.ts';
import type { EnvelopeSealer, ReasoningState } from './reasoning-envelope.ts';
import { clientSlot, putGeminiSignature, putOnReasoning, takeReasoningState } from './reasoning-slots.ts';

export interface ReasoningReplyContext {
  sealer: EnvelopeSealer;
  upstream: UpstreamProtocolId;
  client: ProtocolId;
  channelId: string;
  /** False when the client asked not to get opaque reasoning (Responses without `include`). */
  clientCarries: boolean;
  /** Keeps the turn's envelope server-side under its tool-call ids, for clients that drop it. */
  remember?: (callIds: string[], envelope: string) => void;
  /** Reply-side losses, for the usage row. */
  warnings: Warning[];
}

const NOT_CARRIED: Warning = {
  type: 'unsupported',
  feature: 'reasoning_state',
  detail: 'the client did not ask for encrypted reasoning (include: ["reasoning.encrypted_content"]); the gateway keeps it under the tool-call ids instead',
};

/**
 * A translated, non-streamed reply: the upstream's reasoning state leaves its native fields and
 * travels to the client sealed in one envelope, in the slot that client protocol echoes back.
 */
export function sealReplyReasoning(response: ChatResponse, context: ReasoningReplyContext): ChatResponse {
  const content = structuredClone(response.content);
  const states: ReasoningState[] = [];
  for (const part of content) {
    const state = takeReasoningState(part, context.upstream);
    if (state) states.push(state);
  }
  if (states.length === 0) return { ...response, content };
  const envelope = context.sealer.seal({ protocol: context.upstream, channelId: context.channelId }, states);
  const callIds = content.flatMap((part) => (part.type === 'tool-call' ? [part.callId] : []));
  if (callIds.length > 0) context.remember?.(callIds, envelope);
  if (!context.clientCarries) {
    context.warnings.push(NOT_CARRIED);
    return { ...response, content };
  }
  placeEnvelope(content, context.client, envelope, callIds.length > 0);
  return { ...response, content };
}

/** `allowCarrier`: add a block of its own when the reply has no slot (only worth it before tool results). */
function placeEnvelope(content: AssistantContentPart[], client: ProtocolId, envelope: string, allowCarrier: boolean): void {
  const slot = clientSlot(client);
  if (slot === 'gemini-signature') {
    // Gemini clients keep signatures on function calls (Gemini CLI drops thought parts from history).
    const target = content.find((part) => part.type === 'tool-call') ?? content.find((part) => part.type === 'text');
    if (target && (target.type === 'tool-call' || target.type === 'text')) putGeminiSignature(target, envelope);
    else if (allowCarrier) {
      const carrier = { type: 'text' as const, text: '' };
      putGeminiSignature(carrier, envelope);
      content.push(carrier);
    }
    return;
  }
  const reasoning = content.find((part): part is ReasoningPart => part.type === 'reasoning');
  if (reasoning) putOnReasoning(reasoning, slot, envelope);
  else if (allowCarrier) {
    const carrier: ReasoningPart = { type: 'reasoning', text: '' };
    putOnReasoning(carrier, slot, envelope);
    content.unshift(carrier);
  }
}

/**
 * The streamed counterpart: a filter between the upstream decoder and the client encoder.
 * State seen so far is sealed into the first slot the client protocol offers after it; state
 * with no slot left by the end rides on a small carrier block (an empty thinking block, an
 * empty signed text part) just before the response ends.
 */
export function createReasoningStreamSealer(context: ReasoningReplyContext): (event: StreamEvent) => StreamEvent[] {
  const slot = clientSlot(context.client);
  const binding = { protocol: context.upstream, channelId: context.channelId };
  const reasoningText = new Map<string, string>();
  const callIdOf = new Map<string, string>();
  const callIds: string[] = [];
  let pending: ReasoningState[] = [];
  const all: ReasoningState[] = [];
  let carriers = 0;
  let warned = false;

  const collect = (state: ReasoningState | undefined) => {
    if (!state) return;
    pending.push(state);
    all.push(state);
  };
  const sealPending = (): string | undefined => {
    if (pending.length === 0) return undefined;
    if (!context.clientCarries) {
      if (!warned) context.warnings.push(NOT_CARRIED);
      warned = true;
      pending = [];
      return undefined;
    }
    const envelope = context.sealer.seal(binding, pending);
    pending = [];
    return envelope;
  };
  const carrierEvents = (envelope: string): StreamEvent[] => {
    carriers += 1;
    const id = `reasoning-carrier-${carriers}`;
    if (slot === 'gemini-signature') {
      return [
        { type: 'text-start', id },
        { type: 'text-end', id, providerMetadata: { gemini: { thoughtSignature: envelope } } },
      ];
    }
    const part: ReasoningPart = { type: 'reasoning', text: '' };
    putOnReasoning(part, slot, envelope);
    return [
      { type: 'reasoning-start', id },
      {
        type: 'reasoning-end',
        id,
        ...(part.signature === undefined ? {} : { signature: part.signature }),
        ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
      },
    ];
  };

  return (event) => {
    switch (event.type) {
      case 'reasoning-delta':
        reasoningText.set(event.id, (reasoningText.get(event.id) ?? '') + event.delta);
        return [event];
      case 'reasoning-end': {
        const part: ReasoningPart = { type: 'reasoning', text: reasoningText.get(event.id) ?? '' };
        if (event.signature !== undefined) part.signature = event.signature;
        if (event.redactedData !== undefined) part.redactedData = event.redactedData;
        if (event.providerMetadata) part.providerMetadata = structuredClone(event.providerMetadata);
        const state = takeReasoningState(part, context.upstream);
        collect(state);
        const out: StreamEvent = { type: 'reasoning-end', id: event.id };
        if (part.signature !== undefined) out.signature = part.signature;
        if (part.redactedData !== undefined) out.redactedData = part.redactedData;
        if (part.providerMetadata) out.providerMetadata = part.providerMetadata;
        if (slot !== 'gemini-signature') {
          const envelope = sealPending();
          if (envelope !== undefined) {
            const carrier: ReasoningPart = { type: 'reasoning', text: '', ...(state?.kind === 'anthropic-redacted' ? { redactedData: '' } : {}) };
            putOnReasoning(carrier, slot, envelope);
            if (carrier.signature !== undefined) out.signature = carrier.signature;
            if (carrier.redactedData !== undefined) out.redactedData = carrier.redactedData;
            if (carrier.providerMetadata) out.providerMetadata = { ...out.providerMetadata, ...carrier.providerMetadata };
          }
        }
        return [out];
      }
      case 'tool-call-start':
        callIdOf.set(event.id, event.callId);
        callIds.push(event.callId);
        return [event];
      case 'tool-call-end':
      case 'text-end': {
        const metadata = event.providerMetadata ? structuredClone(event.providerMetadata) : undefined;
        const part: AssistantContentPart =
          event.type === 'tool-call-end'
            ? { type: 'tool-call', callId: callIdOf.get(event.id) ?? '', name: '', arguments: '', ...(metadata ? { providerMetadata: metadata } : {}) }
            : { type: 'text', text: '', ...(metadata ? { providerMetadata: metadata } : {}) };
        collect(takeReasoningState(part, context.upstream));
        const out: StreamEvent = { ...event };
        if (part.providerMetadata) out.providerMetadata = part.providerMetadata;
        else delete out.providerMetadata;
        if (event.type === 'text-end') return [out];
        const envelope = sealPending();
        if (envelope === undefined) return [out];
        if (slot === 'gemini-signature') {
          out.providerMetadata = { ...out.providerMetadata, gemini: { ...out.providerMetadata?.gemini, thoughtSignature: envelope } };
          return [out];
        }
        return [out, ...carrierEvents(envelope)];
      }
      case 'response-end': {
        if (callIds.length === 0) {
          // A final answer: no provider validates its state later, and a trailing carrier block
          // would be the last thing some clients show (Claude Code prints the last block).
          pending = [];
          return [event];
        }
        const envelope = sealPending();
        if (all.length > 0) context.remember?.(callIds, context.sealer.seal(binding, all));
        return envelope === undefined ? [event] : [...carrierEvents(envelope), event];
      }
      default:
        return [event];
    }
  };
}
