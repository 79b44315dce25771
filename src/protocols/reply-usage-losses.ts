import type { Usage } from '../core/usage.ts';
import type { Warning } from '../core/warning.ts';
import type { ProtocolId } from './protocol-codec.ts';

/**
 * What a translated reply's usage loses in the client's protocol. Only Anthropic's usage has a
 * field for tokens written to the prompt cache (`cache_creation_input_tokens`); OpenAI and Gemini
 * clients see them inside the input count, billed at the cache-write price without saying so.
 */
export function replyUsageLosses(client: ProtocolId, usage: Usage | undefined): Warning[] {
  const written = usage?.cacheWriteTokens ?? 0;
  if (written <= 0 || client === 'anthropic-messages') return [];
  return [
    {
      type: 'unsupported',
      feature: 'cache_write_tokens',
      detail: `${written} tokens were written to the upstream's prompt cache; the client's usage has no field for them, so they are counted as input`,
    },
  ];
}
