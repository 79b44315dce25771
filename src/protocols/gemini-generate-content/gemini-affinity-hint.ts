import type { AffinityHint, ClientRequestInput } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';

/**
 * A Gemini request names its conversation only through an explicit context cache
 * (`cachedContent`, `cachedContents/…`), which lives in one upstream project: requests that use
 * it belong on the channel and key that served it before.
 */
export function geminiAffinityHint(input: ClientRequestInput): AffinityHint | undefined {
  const body = input.body;
  if (!isRecord(body)) return undefined;
  const cached = typeof body.cachedContent === 'string' ? body.cachedContent : body.cached_content;
  if (typeof cached !== 'string' || cached === '') return undefined;
  return { conversationKeys: [`cachedContent:${cached}`] };
}
