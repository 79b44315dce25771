import { isRecord } from '../shared/is-record.ts';

/**
 * The fields OpenAI itself routes prompt caches by: `prompt_cache_key` (what a client sets to
 * keep one conversation's requests together), else the older `user`. Shared by Chat Completions
 * and Responses.
 */
export function readOpenAiAffinityKeys(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const keys: string[] = [];
  if (typeof body.prompt_cache_key === 'string' && body.prompt_cache_key !== '') keys.push(`prompt_cache_key:${body.prompt_cache_key}`);
  if (typeof body.user === 'string' && body.user !== '') keys.push(`user:${body.user}`);
  return keys;
}
