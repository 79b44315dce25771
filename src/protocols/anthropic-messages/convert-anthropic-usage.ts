import type { Usage } from '../../core/usage.ts';
import { keepUpstreamUsage, uncachedInputTokens } from '../shared/canonical-usage.ts';
import { isRecord } from '../shared/is-record.ts';
import type { AnthropicUsage } from './anthropic-wire-types.ts';

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * Anthropic's `input_tokens` excludes cache reads and writes; the canonical `inputTokens`
 * counts the whole prompt, so the three are added. Cache fields stay absent when not reported.
 */
export function decodeAnthropicUsage(raw: unknown): Usage {
  if (!isRecord(raw)) return { inputTokens: 0, outputTokens: 0 };
  const input = count(raw.input_tokens) ?? 0;
  const cacheRead = count(raw.cache_read_input_tokens);
  const cacheWrite = count(raw.cache_creation_input_tokens);
  const usage: Usage = {
    inputTokens: input + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: count(raw.output_tokens) ?? 0,
  };
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  const write1h = oneHourWrites(raw);
  if (write1h !== undefined) usage.cacheWrite1hTokens = write1h;
  const searches = webSearches(raw);
  if (searches !== undefined) usage.webSearchRequests = searches;
  return keepUpstreamUsage(usage, raw);
}

/**
 * `cache_creation.ephemeral_1h_input_tokens`: the writes kept for an hour, billed at their own
 * price. `cache_creation_input_tokens` is their total with the 5-minute ones, so it is not added again.
 */
function oneHourWrites(raw: Record<string, unknown>): number | undefined {
  return isRecord(raw.cache_creation) ? count(raw.cache_creation.ephemeral_1h_input_tokens) : undefined;
}

/** `server_tool_use.web_search_requests`: the searches Anthropic bills apart from tokens. */
function webSearches(raw: Record<string, unknown>): number | undefined {
  return isRecord(raw.server_tool_use) ? count(raw.server_tool_use.web_search_requests) : undefined;
}

/** The wire usage object; unknown cache counts are written as 0, as Anthropic itself does. */
export function encodeAnthropicUsage(usage: Usage): AnthropicUsage {
  return {
    input_tokens: uncachedInputTokens(usage),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
    cache_read_input_tokens: usage.cacheReadTokens ?? 0,
  };
}

/** `message_delta` usage is cumulative: output always, the other counters only when present. */
export function mergeAnthropicUsage(previous: Usage | undefined, raw: Record<string, unknown>): Usage {
  const base = previous ?? { inputTokens: 0, outputTokens: 0 };
  const cacheRead = count(raw.cache_read_input_tokens) ?? base.cacheReadTokens;
  const cacheWrite = count(raw.cache_creation_input_tokens) ?? base.cacheWriteTokens;
  const uncached = count(raw.input_tokens) ?? base.inputTokens - (base.cacheReadTokens ?? 0) - (base.cacheWriteTokens ?? 0);
  const merged: Usage = {
    inputTokens: uncached + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: count(raw.output_tokens) ?? base.outputTokens,
  };
  if (cacheRead !== undefined) merged.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) merged.cacheWriteTokens = cacheWrite;
  const write1h = oneHourWrites(raw) ?? base.cacheWrite1hTokens;
  if (write1h !== undefined) merged.cacheWrite1hTokens = write1h;
  const searches = webSearches(raw) ?? base.webSearchRequests;
  if (searches !== undefined) merged.webSearchRequests = searches;
  return keepUpstreamUsage(merged, previous === undefined ? raw : streamUsagePair(previous.upstream, raw));
}

/**
 * A stream's usage comes in two objects (`message_start`'s, then `message_delta`'s cumulative
 * counts): the ledger keeps both as sent, under the event that carried each; a later delta replaces
 * the earlier one.
 */
function streamUsagePair(before: unknown, delta: Record<string, unknown>): { message_start: unknown; message_delta: unknown } {
  const start = isRecord(before) && 'message_delta' in before && 'message_start' in before ? before.message_start : (before ?? null);
  return { message_start: start, message_delta: delta };
}
