import type { MediaSource } from '../../core/chat-request.ts';
import type { GeminiPart } from './gemini-wire.ts';

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;

/**
 * A canonical media source → a Gemini part: base64 (and `data:` URLs some clients send as
 * URLs) become `inlineData`; real URLs become `fileData`, which Gemini fetches itself.
 */
export function encodeGeminiMedia(source: MediaSource): GeminiPart {
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  const match = DATA_URL.exec(source.url);
  if (match?.[1] !== undefined && match[2] !== undefined) return { inlineData: { mimeType: match[1], data: match[2] } };
  return { fileData: { ...(source.mediaType === undefined ? {} : { mimeType: source.mediaType }), fileUri: source.url } };
}
