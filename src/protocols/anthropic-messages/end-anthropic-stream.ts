import type { GatewayError } from '../../core/gateway-error.ts';
import type { Usage } from '../../core/usage.ts';
import { uncachedInputTokens } from '../shared/canonical-usage.ts';
import { anthropicErrorType, isAnthropicErrorType } from './anthropic-error-type.ts';
import { anthropicSseEvent, ensureAnthropicMessageStarted, type AnthropicEncoderState } from './anthropic-encoder-state.ts';
import { closeAnthropicBlock } from './encode-anthropic-content-block.ts';

/** `error` → Anthropic's in-stream `event: error`, keeping the upstream's error type when it is one of Anthropic's. */
export function failAnthropicStream(state: AnthropicEncoderState, error: GatewayError): string {
  state.finished = true;
  const type = isAnthropicErrorType(error.upstreamType) ? error.upstreamType : anthropicErrorType(error.status);
  return anthropicSseEvent('error', { error: { type, message: error.message } });
}

/**
 * `response-end` → a single `message_delta` + `message_stop`, written only now because usage
 * from OpenAI upstreams arrives after the finish reason.
 */
export function finishAnthropicStream(state: AnthropicEncoderState, usageAtEnd: Usage | undefined, stopReason: string, stopSequence: string | null): string {
  state.finished = true;
  const final = usageAtEnd ?? state.usage;
  const deltaUsage: Record<string, number> = { output_tokens: final?.outputTokens ?? 0 };
  if (final) {
    deltaUsage.input_tokens = uncachedInputTokens(final);
    if (final.cacheWriteTokens !== undefined) deltaUsage.cache_creation_input_tokens = final.cacheWriteTokens;
    if (final.cacheReadTokens !== undefined) deltaUsage.cache_read_input_tokens = final.cacheReadTokens;
  }
  return (
    ensureAnthropicMessageStarted(state) +
    closeAnthropicBlock(state) +
    anthropicSseEvent('message_delta', { delta: { stop_reason: stopReason, stop_sequence: stopSequence }, usage: deltaUsage }) +
    anthropicSseEvent('message_stop', {})
  );
}
