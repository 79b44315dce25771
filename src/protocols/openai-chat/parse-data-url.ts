import type { MediaSource } from '../../core/chat-request.ts';

/** `data:<mime>;base64,<data>` → its parts; anything else (http URLs, non-base64 data URLs) → undefined. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma === -1) return undefined;
  const header = url.slice(5, comma);
  if (!header.endsWith(';base64')) return undefined;
  const mediaType = header.slice(0, -';base64'.length) || 'application/octet-stream';
  return { mediaType, data: url.slice(comma + 1) };
}

/** OpenAI carries inline media as data URLs; the canonical form keeps base64 and links apart. */
export function mediaSourceFromUrl(url: string): MediaSource {
  const inline = parseDataUrl(url);
  return inline ? { kind: 'base64', mediaType: inline.mediaType, data: inline.data } : { kind: 'url', url };
}

export function mediaSourceToUrl(source: MediaSource): string {
  return source.kind === 'base64' ? `data:${source.mediaType};base64,${source.data}` : source.url;
}
