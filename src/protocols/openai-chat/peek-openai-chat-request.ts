import type { ClientRequestInput, ProviderFeature, RequestPeek } from '../protocol-codec.ts';
import { isSet, withFeatures } from '../shared/collect-tool-features.ts';
import { isRecord } from '../shared/is-record.ts';
import { peekBody } from '../shared/peek-body.ts';

/** The client asked for a final usage chunk (`stream_options.include_usage`). */
export function readOpenAiChatIncludeUsage(body: unknown): boolean {
  return isRecord(body) && isRecord(body.stream_options) && body.stream_options.include_usage === true;
}

/** Output caps and the number of choices: each must be a whole number of at least 1. */
const COUNT_FIELDS = ['max_tokens', 'max_completion_tokens', 'n'] as const;

export function peekOpenAiChatRequest(input: ClientRequestInput): RequestPeek {
  return withFeatures(
    { ...peekBody(input, readOpenAiChatIncludeUsage, 'messages', COUNT_FIELDS), ...peekOpenAiChatCustomTools(input.body) },
    peekOpenAiChatFeatures(input.body),
  );
}

/**
 * The Chat Completions fields OpenAI bills apart from tokens: `service_tier: "priority"` (a
 * higher price per token) and `web_search_options` (the search models' fee per call).
 */
export function peekOpenAiChatFeatures(body: unknown): readonly ProviderFeature[] | undefined {
  if (!isRecord(body)) return undefined;
  const features: ProviderFeature[] = [];
  if (body.service_tier === 'priority') features.push({ kind: 'priority-tier', field: 'service_tier', name: 'priority' });
  if (isSet(body.web_search_options)) features.push({ kind: 'server-tools', field: 'web_search_options', name: 'web_search' });
  return features.length === 0 ? undefined : features;
}

/**
 * The names of the client's custom (freeform) tools, `{"type":"custom","custom":{"name":…}}`: a
 * translated upstream is offered each as a function with one string `input`, and a call to one
 * goes back to the client as a custom tool call (`{"type":"custom","custom":{name,input}}`).
 */
export function peekOpenAiChatCustomTools(body: unknown): { customTools?: readonly string[] } {
  if (!isRecord(body) || !Array.isArray(body.tools)) return {};
  const names = body.tools.flatMap((tool: unknown) =>
    isRecord(tool) && tool.type === 'custom' && isRecord(tool.custom) && typeof tool.custom.name === 'string' ? [tool.custom.name] : [],
  );
  return names.length === 0 ? {} : { customTools: names };
}
