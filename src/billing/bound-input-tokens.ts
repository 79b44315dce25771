import type { ChatRequest, MediaSource } from '../core/chat-request.ts';

/**
 * Tokens allowed for one image: above what any provider charges for a single picture at its
 * largest accepted size (OpenAI high detail ~1.1k–2.5k, Anthropic ~1.6k, Gemini tiles of 258
 * or 1,120 at high media resolution), so the reservation is not low for image-heavy prompts.
 */
export const IMAGE_TOKEN_ALLOWANCE = 10_000;
/** The floor for a document or audio file, whose token count its size bounds only loosely. */
export const FILE_TOKEN_FLOOR = 10_000;
/** Role, separators and message framing the providers add per message. */
const MESSAGE_FRAMING = 8;

const encoder = new TextEncoder();

/**
 * An upper bound on a request's input tokens, for reserving balance before the real usage is
 * known — unlike `estimateInputTokens` (about four characters a token), it cannot be low for
 * any language: every tokenizer in use (byte-level BPE for OpenAI and Anthropic, SentencePiece
 * with byte fallback for Gemini) spends at least one UTF-8 byte per token, so the byte count
 * of the text bounds its tokens. Chinese, Japanese and Korean run near one token per
 * character, three bytes each; English about four bytes a token: the bound over-reserves
 * English about fourfold, which is held only while the request runs.
 *
 * Media cannot be counted this way: images get a fixed allowance above any provider's charge
 * per image, files the larger of their decoded size and a floor.
 */
export function boundInputTokens(request: ChatRequest): number {
  let tokens = 0;
  for (const part of request.system) tokens += bytes(part.text) + MESSAGE_FRAMING;
  for (const message of request.messages) {
    tokens += MESSAGE_FRAMING;
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          tokens += bytes(part.text);
          break;
        case 'image':
          tokens += IMAGE_TOKEN_ALLOWANCE;
          break;
        case 'file':
          tokens += fileTokens(part.source);
          break;
        case 'tool-call':
          tokens += bytes(part.name) + bytes(part.arguments) + MESSAGE_FRAMING;
          break;
        case 'tool-result':
          tokens += MESSAGE_FRAMING;
          for (const inner of part.content) tokens += inner.type === 'text' ? bytes(inner.text) : IMAGE_TOKEN_ALLOWANCE;
          break;
        default: {
          const unreachable: never = part;
          throw new Error(`unknown part ${JSON.stringify(unreachable)}`);
        }
      }
    }
  }
  for (const tool of request.tools) {
    tokens += bytes(tool.name) + bytes(tool.description ?? '') + bytes(JSON.stringify(tool.parameters)) + MESSAGE_FRAMING;
  }
  return tokens;
}

function bytes(text: string): number {
  // Exact UTF-8 length without allocating for ASCII-only text.
  // eslint-disable-next-line no-control-regex
  return /^[\u0000-\u007f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

function fileTokens(source: MediaSource): number {
  if (source.kind === 'url') return FILE_TOKEN_FLOOR;
  return Math.max(FILE_TOKEN_FLOOR, Math.ceil((source.data.length * 3) / 4));
}
