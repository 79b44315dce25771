import type { AssistantContentPart } from '../../core/chat-request.ts';
import type { ProviderMetadata } from '../../core/provider-metadata.ts';
import type { ReasoningState } from '../../core/reasoning-state.ts';

/*
 * Where each provider keeps its reasoning state on canonical parts, read and removed in one
 * step (each codec's `takeReasoningState`). Only the upstream's own fields are read: anything
 * else on a part is not that provider's state and never travels to it.
 */

/** Claude's signed or redacted thinking (Anthropic's API, and Converse's reasoningContent, which decodes to the same parts). */
export function takeClaudeReasoningState(part: AssistantContentPart): ReasoningState | undefined {
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
}

/** Gemini's thought signatures, on calls, thoughts and text. */
export function takeGeminiReasoningState(part: AssistantContentPart): ReasoningState | undefined {
  const signature = takeMetadata(part, 'gemini', 'thoughtSignature');
  if (signature === undefined) return undefined;
  if (part.type === 'tool-call') return { kind: 'gemini-call', callId: part.callId, signature };
  if (part.type === 'reasoning') return { kind: 'gemini-thought', text: part.text, signature };
  return { kind: 'gemini-text', signature };
}

/** An OpenAI Responses reasoning item's encrypted content. */
export function takeOpenAiReasoningState(part: AssistantContentPart): ReasoningState | undefined {
  if (part.type !== 'reasoning') return undefined;
  const encryptedContent = takeMetadata(part, 'openai', 'encryptedContent');
  if (encryptedContent === undefined) return undefined;
  const itemId = part.providerMetadata?.openai?.itemId;
  return { kind: 'openai-reasoning', text: part.text, encryptedContent, ...(typeof itemId === 'string' ? { itemId } : {}) };
}

function takeMetadata(part: { providerMetadata?: ProviderMetadata }, provider: 'gemini' | 'openai', field: string): string | undefined {
  const bag = part.providerMetadata?.[provider] as Record<string, unknown> | undefined;
  const value = bag?.[field];
  if (typeof value !== 'string' || value === '') return undefined;
  delete bag![field];
  return value;
}
