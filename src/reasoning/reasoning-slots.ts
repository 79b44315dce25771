import type { AssistantContentPart, ReasoningPart, TextPart, ToolCallPart } from '../core/chat-request.ts';
import type { ProviderMetadata } from '../core/provider-metadata.ts';
import type { ProtocolId, UpstreamProtocolId } from '../protocols/protocol-codec.ts';
import type { ReasoningState } from './reasoning-envelope.ts';

/**
 * Where each provider keeps its reasoning state on canonical parts, read and removed in one
 * step. Only the upstream's own fields are read: anything else on a part is not that
 * provider's state and never travels to it.
 */
export function takeReasoningState(part: AssistantContentPart, upstream: UpstreamProtocolId): ReasoningState | undefined {
  switch (upstream) {
    case 'anthropic-messages':
    // Claude on Bedrock: Converse's reasoningContent decodes to the same signed or redacted parts.
    case 'bedrock-converse':
      if (part.type !== 'reasoning') return undefined;
      if (part.redactedData !== undefined) {
        const data = part.redactedData;
        delete part.redactedData;
        return { kind: 'anthropic-redacted', data };
      }
      if (part.signature !== undefined && part.signature !== '') {
        const signature = part.signature;
        delete part.signature;
        return { kind: 'anthropic-thinking', text: part.text, signature };
      }
      return undefined;
    case 'gemini-generate-content': {
      const signature = takeMetadata(part, 'gemini', 'thoughtSignature');
      if (signature === undefined) return undefined;
      if (part.type === 'tool-call') return { kind: 'gemini-call', callId: part.callId, signature };
      if (part.type === 'reasoning') return { kind: 'gemini-thought', text: part.text, signature };
      return { kind: 'gemini-text', signature };
    }
    case 'openai-responses': {
      if (part.type !== 'reasoning') return undefined;
      const encryptedContent = takeMetadata(part, 'openai', 'encryptedContent');
      if (encryptedContent === undefined) return undefined;
      const itemId = part.providerMetadata?.openai?.itemId;
      return { kind: 'openai-reasoning', text: part.text, encryptedContent, ...(typeof itemId === 'string' ? { itemId } : {}) };
    }
    case 'openai-chat':
      return undefined;
    default: {
      const unreachable: never = upstream;
      return unreachable;
    }
  }
}

function takeMetadata(part: { providerMetadata?: ProviderMetadata }, provider: 'gemini' | 'openai', field: string): string | undefined {
  const bag = part.providerMetadata?.[provider] as Record<string, unknown> | undefined;
  const value = bag?.[field];
  if (typeof value !== 'string' || value === '') return undefined;
  delete bag![field];
  return value;
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

/** How a client protocol carries an envelope back: its own opaque reasoning slot. */
export type ClientSlot = 'reasoning-signature' | 'reasoning-encrypted' | 'gemini-signature';

export function clientSlot(client: ProtocolId): ClientSlot {
  switch (client) {
    case 'anthropic-messages':
      return 'reasoning-signature';
    case 'openai-responses':
    case 'openai-chat':
      return 'reasoning-encrypted';
    case 'gemini-generate-content':
      return 'gemini-signature';
    default: {
      const unreachable: never = client;
      return unreachable;
    }
  }
}

export function putOnReasoning(part: ReasoningPart, slot: ClientSlot, envelope: string): void {
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
