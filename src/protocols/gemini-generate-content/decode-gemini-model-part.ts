import type { AssistantContentPart } from '../../core/chat-request.ts';
import type { ProviderMetadata } from '../../core/provider-metadata.ts';
import type { GeminiPartView } from './read-gemini-part.ts';

export function geminiSignatureMetadata(signature: string | undefined): { providerMetadata?: ProviderMetadata } {
  return signature === undefined ? {} : { providerMetadata: { gemini: { thoughtSignature: signature } } };
}

/**
 * The assistant side of a Gemini part: text, thoughts and function calls. Thought signatures
 * ride along as provider metadata so that replaying the history to Gemini stays byte-exact.
 * `callId` is the id to use for a function call (the caller synthesises one when Gemini sent
 * none). Returns undefined for parts an assistant turn cannot hold.
 */
export function decodeGeminiModelPart(view: GeminiPartView, callId: () => string): AssistantContentPart | undefined {
  switch (view.kind) {
    case 'text':
      return view.thought
        ? { type: 'reasoning', text: view.text, ...geminiSignatureMetadata(view.thoughtSignature) }
        : { type: 'text', text: view.text, ...geminiSignatureMetadata(view.thoughtSignature) };
    case 'function-call':
      return {
        type: 'tool-call',
        callId: view.id ?? callId(),
        name: view.name,
        arguments: JSON.stringify(view.args),
        ...geminiSignatureMetadata(view.thoughtSignature),
      };
    case 'inline-data':
    case 'file-data':
    case 'function-response':
    case 'unsupported':
    case 'invalid':
    case 'unknown':
      return undefined;
    default: {
      const unreachable: never = view;
      return unreachable;
    }
  }
}
