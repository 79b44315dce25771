import type { AssistantContentPart } from '../../core/chat-request.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import type { GeminiPart } from './gemini-wire.ts';

/**
 * One canonical assistant part → the Gemini part a client reads in a response. Unlike request
 * history, thoughts are shown even without a signature (the client asked to see them). An
 * empty text part with nothing else is dropped: Gemini CLI treats it as an invalid response.
 */
export function encodeGeminiModelPart(part: AssistantContentPart): GeminiPart | undefined {
  const signature = part.providerMetadata?.gemini?.thoughtSignature;
  const signed = signature === undefined ? {} : { thoughtSignature: signature };
  switch (part.type) {
    case 'text':
      if (part.text === '' && signature === undefined) return undefined;
      return { text: part.text, ...signed };
    case 'reasoning':
      if (part.text === '' && signature === undefined) return undefined;
      return { text: part.text, thought: true, ...signed };
    case 'tool-call':
      return { functionCall: { id: part.callId, name: part.name, args: parseToolArguments(part.arguments) }, ...signed };
    default: {
      const unreachable: never = part;
      throw new Error(`unknown part ${JSON.stringify(unreachable)}`);
    }
  }
}
