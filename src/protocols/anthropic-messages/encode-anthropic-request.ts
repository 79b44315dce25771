import type { ChatRequest } from '../../core/chat-request.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Warning } from '../../core/warning.ts';
import type { Decoded, UpstreamRequestOutput } from '../protocol-codec.ts';
import type { AnthropicRequestBody, AnthropicTextBlock } from './anthropic-wire-types.ts';
import { withCacheControl } from './encode-anthropic-media.ts';
import { encodeAnthropicMessages } from './encode-anthropic-messages.ts';
import { encodeAnthropicSampling } from './encode-anthropic-sampling.ts';
import { encodeAnthropicThinking } from './encode-anthropic-thinking.ts';
import { encodeAnthropicToolChoice, encodeAnthropicTools } from './encode-anthropic-tools.ts';
import { createToolIdSanitizer } from './sanitize-anthropic-tool-id.ts';

/** Anthropic requires `max_tokens`; this is what we ask for when the client did not say. */
export const DEFAULT_MAX_TOKENS = 8192;

function encodeSystem(request: ChatRequest): string | AnthropicTextBlock[] | undefined {
  const blocks = request.system
    .filter((part) => part.text.trim() !== '')
    .map((part) => withCacheControl<AnthropicTextBlock>({ type: 'text', text: part.text }, part.providerMetadata));
  if (blocks.length === 0) return undefined;
  const [only] = blocks;
  return blocks.length === 1 && only !== undefined && only.cache_control === undefined ? only.text : blocks;
}

function warnUnsupported(request: ChatRequest, warnings: Warning[]): void {
  if (request.candidateCount !== undefined && request.candidateCount > 1) {
    warnings.push({ type: 'unsupported', feature: 'candidateCount', detail: 'Anthropic returns one completion per request.' });
  }
  if (request.seed !== undefined) warnings.push({ type: 'unsupported', feature: 'seed' });
  if (request.presencePenalty !== undefined) warnings.push({ type: 'unsupported', feature: 'presencePenalty' });
  if (request.frequencyPenalty !== undefined) warnings.push({ type: 'unsupported', feature: 'frequencyPenalty' });
  if (request.responseFormat?.type === 'json' && request.responseFormat.schema === undefined) {
    warnings.push({
      type: 'unsupported',
      feature: 'responseFormat',
      detail: 'Anthropic structured output needs a JSON schema; plain JSON mode was not forwarded.',
    });
  }
}

/** Canonical request → Anthropic Messages body: strict, and shaped the way Anthropic validates. */
export function encodeAnthropicRequest(request: ChatRequest, context: RuntimeContext): Decoded<UpstreamRequestOutput> {
  const warnings: Warning[] = [];
  warnUnsupported(request, warnings);
  const { thinking, maxTokens } = encodeAnthropicThinking(
    request.reasoning,
    request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    request.maxOutputTokens !== undefined,
    warnings,
  );
  const system = encodeSystem(request);
  const body: AnthropicRequestBody = {
    model: request.model,
    max_tokens: maxTokens,
    ...(system === undefined ? {} : { system }),
    messages: encodeAnthropicMessages(request.messages, createToolIdSanitizer(context), warnings),
    stream: request.stream,
  };
  if (request.tools.length > 0) {
    body.tools = encodeAnthropicTools(request.tools);
    const toolChoice = encodeAnthropicToolChoice(request.toolChoice, request.parallelToolCalls);
    if (toolChoice) body.tool_choice = toolChoice;
  }

  const sampling = encodeAnthropicSampling(request, thinking !== undefined, warnings);
  if (sampling.temperature !== undefined) body.temperature = sampling.temperature;
  if (sampling.topP !== undefined) body.top_p = sampling.topP;
  if (sampling.topK !== undefined) body.top_k = sampling.topK;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) body.stop_sequences = request.stopSequences;
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  if (thinking !== undefined) body.thinking = thinking;
  if (request.responseFormat?.type === 'json' && request.responseFormat.schema !== undefined) {
    body.output_config = { format: { type: 'json_schema', schema: request.responseFormat.schema } };
  }
  return { value: { body: reorder(body), model: request.model, stream: request.stream }, warnings };
}

/** Keys in the order Anthropic documents them, so logged bodies read naturally and diff cleanly. */
function reorder(body: AnthropicRequestBody): AnthropicRequestBody {
  const { stream, ...rest } = body;
  return { ...rest, stream };
}
