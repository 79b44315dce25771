import type { ChatRequest } from '../core/chat-request.ts';

/** Rough tokens for text: about four characters each, as the public tokenizers average on English. */
export function estimateTextTokens(text: string): number {
  return estimateTokensFromChars(text.length);
}

export function estimateTokensFromChars(chars: number): number {
  return Math.ceil(chars / 4);
}

/** A fixed allowance per image, near what providers charge for a mid-size picture. */
const TOKENS_PER_IMAGE = 800;

/**
 * A local estimate of a request's input tokens, for count-tokens endpoints (which clients
 * use only for calibration) and for reserving balance before the real usage is known.
 */
export function estimateInputTokens(request: ChatRequest): number {
  let tokens = 0;
  for (const part of request.system) tokens += estimateTextTokens(part.text);
  for (const message of request.messages) {
    tokens += 4; // role and framing
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          tokens += estimateTextTokens(part.text);
          break;
        case 'image':
        case 'file':
          tokens += TOKENS_PER_IMAGE;
          break;
        case 'tool-call':
          tokens += estimateTextTokens(part.name) + estimateTextTokens(part.arguments);
          break;
        case 'tool-result':
          for (const inner of part.content) {
            tokens += inner.type === 'text' ? estimateTextTokens(inner.text) : TOKENS_PER_IMAGE;
          }
          break;
        default: {
          const unreachable: never = part;
          throw new Error(`unknown part ${JSON.stringify(unreachable)}`);
        }
      }
    }
  }
  for (const tool of request.tools) {
    tokens += estimateTextTokens(tool.name) + estimateTextTokens(tool.description ?? '');
    tokens += estimateTextTokens(JSON.stringify(tool.parameters));
  }
  return tokens;
}
