import type { RuntimeContext } from '../../core/runtime-context.ts';
import type { Usage } from '../../core/usage.ts';
import { formatSseJson } from '../sse/format-sse-message.ts';
import { encodeAnthropicUsage } from './convert-anthropic-usage.ts';
import { anthropicMessageId } from './encode-anthropic-response.ts';

export type AnthropicBlockKind = 'text' | 'thinking' | 'tool_use';

export interface OpenAnthropicBlock {
  /** The canonical block id. */
  id: string;
  index: number;
  kind: AnthropicBlockKind;
}

/**
 * Per-stream state of the Anthropic encoder. The functions of each event family
 * (message lifecycle, content blocks, reasoning, terminal events) read and update it in place.
 */
export interface AnthropicEncoderState {
  readonly context: RuntimeContext;
  pendingStart: { id: string; model: string } | undefined;
  started: boolean;
  finished: boolean;
  usage: Usage | undefined;
  nextIndex: number;
  open: OpenAnthropicBlock | undefined;
  /** Reasoning whose block is not written yet: redacted thinking is only known at its end. */
  pendingReasoning: string | undefined;
  hasToolCalls: boolean;
}

export function createAnthropicEncoderState(context: RuntimeContext): AnthropicEncoderState {
  return {
    context,
    pendingStart: undefined,
    started: false,
    finished: false,
    usage: undefined,
    nextIndex: 0,
    open: undefined,
    pendingReasoning: undefined,
    hasToolCalls: false,
  };
}

/** One Anthropic SSE event: the event name repeated as the payload's `type`. */
export function anthropicSseEvent(name: string, payload: Record<string, unknown>): string {
  return formatSseJson({ type: name, ...payload }, name);
}

/**
 * `message_start` (then `ping`), once. It waits for the first event after `response-start`,
 * so input usage that the upstream reports right after starting (Anthropic's own
 * `message_start`) lands in it.
 */
export function ensureAnthropicMessageStarted(state: AnthropicEncoderState): string {
  if (state.started) return '';
  state.started = true;
  const usage = state.usage;
  const start = state.pendingStart ?? { id: '', model: '' };
  const startUsage = encodeAnthropicUsage(usage ?? { inputTokens: 0, outputTokens: 0 });
  const message = {
    id: anthropicMessageId(start.id, state.context),
    type: 'message',
    role: 'assistant',
    model: start.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...startUsage, output_tokens: usage === undefined ? 1 : startUsage.output_tokens },
  };
  return anthropicSseEvent('message_start', { message }) + anthropicSseEvent('ping', {});
}
