import { randomBytes } from 'node:crypto';
import type { JsonReply } from './json-reply.ts';
import type { SimulatorScript } from './simulator-script.ts';

/**
 * OpenAI's `POST /v1/responses/compact`, with the request rules the real API applies, refused in
 * its shape: `model` is required; the body holds only the compact endpoint's fields (the
 * documented ones — input, instructions, previous_response_id, the prompt-cache options,
 * service_tier — and those Codex, OpenAI's own client, sends: tools, parallel_tool_calls,
 * reasoning, text); a create-only field such as `stream`, `store` or `context_management` is an
 * unknown parameter. The reply is a `response.compaction` object: the input's user messages, then
 * one compaction item whose `encrypted_content` only this simulator can read. A compaction item
 * it did not issue is refused here and on `POST /v1/responses` (`invalid_encrypted_content`), as
 * OpenAI refuses content encrypted for another organisation: a gateway that passes compaction
 * through must hand the item back exactly.
 */
const KNOWN = new Set([
  'model',
  'input',
  'instructions',
  'previous_response_id',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'service_tier',
  'tools',
  'parallel_tool_calls',
  'reasoning',
  'text',
]);

const invalid = (message: string, param: string | null, code: string | null = null): JsonReply => ({
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param, code } },
  headers: {},
});

type Json = Record<string, unknown>;

export interface CompactionIssuer {
  /** The answer to one compact call: the compaction object, or OpenAI's 400. */
  answer(body: unknown, script: SimulatorScript, ids: { responseId: string; createdSeconds: number }): JsonReply;
  /** A Responses body whose input holds a compaction item this simulator did not issue: the refusal. */
  check(body: unknown): JsonReply | undefined;
}

export function createCompactionIssuer(): CompactionIssuer {
  const issued = new Set<string>();
  const check = (body: unknown): JsonReply | undefined => {
    const input = isObject(body) ? body.input : undefined;
    if (!Array.isArray(input)) return undefined;
    for (const [index, item] of input.entries()) {
      if (!isObject(item) || item.type !== 'compaction') continue;
      if (typeof item.encrypted_content !== 'string' || !issued.has(item.encrypted_content)) {
        return invalid(
          'The encrypted content for item ' + `input[${index}]` + ' could not be verified. Reason: Encrypted content could not be decrypted or parsed.',
          `input[${index}].encrypted_content`,
          'invalid_encrypted_content',
        );
      }
    }
    return undefined;
  };
  return {
    check,
    answer(body, script, ids) {
      if (!isObject(body)) return invalid('We could not parse the JSON body of your request.', null);
      for (const field of Object.keys(body)) if (!KNOWN.has(field)) return invalid(`Unknown parameter: '${field}'.`, field, 'unknown_parameter');
      if (typeof body.model !== 'string' || body.model === '') return invalid("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
      const input = body.input ?? null;
      if (input !== null && typeof input !== 'string' && !Array.isArray(input)) {
        return invalid("Invalid type for 'input': expected one of a string or an array of input items.", 'input', 'invalid_type');
      }
      if ((input === null || input.length === 0) && typeof body.previous_response_id !== 'string') {
        return invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
      }
      const refused = check(body);
      if (refused !== undefined) return refused;
      const content = `gAAAAAB${randomBytes(24).toString('base64url')}`;
      issued.add(content);
      const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : (input ?? []);
      const users = items.filter((item) => isObject(item) && item.role === 'user');
      const inputTokens = script.usage?.input ?? Math.max(1, Math.ceil(JSON.stringify(body).length / 4));
      const outputTokens = script.usage?.output ?? 120;
      return {
        status: 200,
        headers: {},
        body: {
          id: ids.responseId,
          object: 'response.compaction',
          created_at: ids.createdSeconds,
          output: [...users, { id: `cmp_${randomBytes(12).toString('hex')}`, type: 'compaction', encrypted_content: content }],
          usage: {
            input_tokens: inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: outputTokens,
            output_tokens_details: { reasoning_tokens: script.usage?.reasoning ?? 0 },
            total_tokens: inputTokens + outputTokens,
          },
        },
      };
    },
  };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
