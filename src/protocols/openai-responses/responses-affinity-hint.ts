import { readOpenAiAffinityKeys } from '../openai-chat/read-openai-affinity-keys.ts';
import type { AffinityHint, ClientRequestInput } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';

/**
 * A Responses request's conversation: `prompt_cache_key` / `user` as in Chat Completions, and
 * the `previous_response_id` chain (every turn, with or without one, starts or continues a chain).
 */
export function responsesAffinityHint(input: ClientRequestInput): AffinityHint {
  const body = input.body;
  const previous = isRecord(body) && typeof body.previous_response_id === 'string' && body.previous_response_id !== '' ? body.previous_response_id : undefined;
  return { conversationKeys: readOpenAiAffinityKeys(body), responseChain: { previous } };
}
