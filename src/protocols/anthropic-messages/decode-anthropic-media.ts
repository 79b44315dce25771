import type { FilePart, ImagePart, MediaSource } from '../../core/chat-request.ts';
import { invalidRequest } from '../../core/gateway-error.ts';
import type { ProviderMetadata } from '../../core/provider-metadata.ts';
import type { Warning } from '../../core/warning.ts';
import { isRecord } from '../shared/is-record.ts';

/** `cache_control` rides along as provider metadata so an Anthropic round trip keeps it. */
export function readCacheControl(block: Record<string, unknown>): ProviderMetadata | undefined {
  return block.cache_control === undefined || block.cache_control === null ? undefined : { anthropic: { cacheControl: block.cache_control } };
}

function readSource(block: Record<string, unknown>, param: string, warnings: Warning[]): MediaSource | undefined {
  const source = block.source;
  if (!isRecord(source)) throw invalidRequest(`${param}.source must be an object.`, `${param}.source`);
  switch (source.type) {
    case 'base64':
      if (typeof source.data !== 'string' || typeof source.media_type !== 'string') {
        throw invalidRequest(`${param}.source needs string "media_type" and "data" for a base64 source.`, `${param}.source`);
      }
      return { kind: 'base64', mediaType: source.media_type, data: source.data };
    case 'url':
      if (typeof source.url !== 'string') {
        throw invalidRequest(`${param}.source.url must be a string.`, `${param}.source.url`);
      }
      return { kind: 'url', url: source.url };
    case 'text':
      // Plain-text documents: carried as base64 so every protocol sees one source shape.
      if (typeof source.data !== 'string') {
        throw invalidRequest(`${param}.source.data must be a string.`, `${param}.source.data`);
      }
      return { kind: 'base64', mediaType: 'text/plain', data: Buffer.from(source.data, 'utf8').toString('base64') };
    default:
      warnings.push({
        type: 'unsupported',
        feature: 'media-source',
        detail: `${param}.source of type ${JSON.stringify(source.type)} was dropped; only base64, url and text sources translate.`,
      });
      return undefined;
  }
}

export function decodeAnthropicImage(block: Record<string, unknown>, param: string, warnings: Warning[]): ImagePart | undefined {
  const source = readSource(block, param, warnings);
  if (source === undefined) return undefined;
  const part: ImagePart = { type: 'image', source };
  const metadata = readCacheControl(block);
  if (metadata) part.providerMetadata = metadata;
  return part;
}

export function decodeAnthropicDocument(block: Record<string, unknown>, param: string, warnings: Warning[]): FilePart | undefined {
  const source = readSource(block, param, warnings);
  if (source === undefined) return undefined;
  const part: FilePart = { type: 'file', source };
  if (typeof block.title === 'string') part.filename = block.title;
  const metadata = readCacheControl(block);
  if (metadata) part.providerMetadata = metadata;
  return part;
}
