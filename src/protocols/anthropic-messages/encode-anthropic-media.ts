import type { FilePart, ImagePart } from '../../core/chat-request.ts';
import type { ProviderMetadata } from '../../core/provider-metadata.ts';
import type { Warning } from '../../core/warning.ts';
import type { AnthropicDocumentBlock, AnthropicImageBlock } from './anthropic-wire-types.ts';

const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** The `cache_control` an Anthropic client put on a block, when it came through us. */
export function cacheControlOf(metadata: ProviderMetadata | undefined): unknown {
  const value = metadata?.anthropic?.cacheControl;
  return value === null ? undefined : value;
}

/** Adds `cache_control` only when there is one, so blocks stay free of `undefined` keys. */
export function withCacheControl<T extends object>(block: T, metadata: ProviderMetadata | undefined): T {
  const cacheControl = cacheControlOf(metadata);
  return cacheControl === undefined ? block : { ...block, cache_control: cacheControl };
}

export function encodeAnthropicImage(part: ImagePart, warnings: Warning[]): AnthropicImageBlock | undefined {
  const source = part.source;
  if (source.kind === 'url') {
    return withCacheControl<AnthropicImageBlock>({ type: 'image', source: { type: 'url', url: source.url } }, part.providerMetadata);
  }
  const mediaType = source.mediaType === 'image/jpg' ? 'image/jpeg' : source.mediaType;
  if (!IMAGE_MEDIA_TYPES.has(mediaType)) {
    warnings.push({
      type: 'unsupported',
      feature: 'image-media-type',
      detail: `An image of type ${source.mediaType} was dropped; Anthropic accepts jpeg, png, gif and webp.`,
    });
    return undefined;
  }
  return withCacheControl<AnthropicImageBlock>({ type: 'image', source: { type: 'base64', media_type: mediaType, data: source.data } }, part.providerMetadata);
}

export function encodeAnthropicDocument(part: FilePart, warnings: Warning[]): AnthropicDocumentBlock | undefined {
  const source = part.source;
  let block: AnthropicDocumentBlock;
  if (source.kind === 'url') {
    block = { type: 'document', source: { type: 'url', url: source.url } };
  } else if (source.mediaType === 'application/pdf') {
    block = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: source.data } };
  } else if (source.mediaType === 'text/plain') {
    const text = Buffer.from(source.data, 'base64').toString('utf8');
    block = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } };
  } else {
    warnings.push({
      type: 'unsupported',
      feature: 'file-media-type',
      detail: `A file of type ${source.mediaType} was dropped; Anthropic documents are PDF or plain text.`,
    });
    return undefined;
  }
  if (part.filename !== undefined) block.title = part.filename;
  return withCacheControl(block, part.providerMetadata);
}
