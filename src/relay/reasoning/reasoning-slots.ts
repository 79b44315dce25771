import type { AssistantContentPart, ReasoningPart, TextPart, ToolCallPart } from '../../core/chat-request.ts';
import type { ReasoningSlot, ReasoningState } from '../../core/reasoning-state.ts';
import { getCodec } from '../../protocols/codec-registry.ts';
import type { ProtocolId, UpstreamProtocolId } from '../../protocols/protocol-codec.ts';

/** The upstream's reasoning state on a canonical part, read and removed by its codec (`takeReasoningState`). */
export function takeReasoningState(part: AssistantContentPart, upstream: UpstreamProtocolId): ReasoningState | undefined {
  return getCodec(upstream).takeReasoningState?.(part);
}

/** How a client protocol carries an envelope back: its codec's `reasoningSlot`. */
export function clientSlot(client: ProtocolId): ReasoningSlot {
  const slot = getCodec(client).reasoningSlot;
  if (slot === undefined) throw new Error(`the ${client} codec names no reasoning slot`);
  return slot;
}

/**
 * Every string a client of any protocol may have carried an envelope in, removed from the part
 * when `take` says so (all of them on a translated request; only envelopes when the client speaks
 * the upstream's own protocol and its raw values are that upstream's own).
 */
export function takeCarriedValues(part: AssistantContentPart, take: (value: string) => boolean): string[] {
  const values: string[] = [];
  if (part.type === 'reasoning') {
    if (part.signature !== undefined && take(part.signature)) {
      values.push(part.signature);
      delete part.signature;
    }
    if (part.redactedData !== undefined && take(part.redactedData)) {
      values.push(part.redactedData);
      delete part.redactedData;
    }
  }
  for (const [provider, field] of [
    ['gemini', 'thoughtSignature'],
    ['openai', 'encryptedContent'],
  ] as const) {
    const bag = part.providerMetadata?.[provider] as Record<string, unknown> | undefined;
    const value = bag?.[field];
    if (typeof value === 'string' && take(value)) {
      values.push(value);
      delete bag![field];
    }
  }
  return values;
}

/** Puts an envelope in the client protocol's own opaque reasoning slot (its codec's `reasoningSlot`). */
export function putOnReasoning(part: ReasoningPart, slot: ReasoningSlot, envelope: string): void {
  if (slot === 'reasoning-signature') {
    // A redacted block stays redacted for the client; its data slot carries the envelope.
    if (part.redactedData !== undefined) part.redactedData = envelope;
    else part.signature = envelope;
  } else if (slot === 'reasoning-encrypted') {
    part.providerMetadata = { ...part.providerMetadata, openai: { ...part.providerMetadata?.openai, encryptedContent: envelope } };
  } else {
    part.providerMetadata = { ...part.providerMetadata, gemini: { ...part.providerMetadata?.gemini, thoughtSignature: envelope } };
  }
}

export function putGeminiSignature(part: TextPart | ToolCallPart, envelope: string): void {
  part.providerMetadata = { ...part.providerMetadata, gemini: { ...part.providerMetadata?.gemini, thoughtSignature: envelope } };
}
