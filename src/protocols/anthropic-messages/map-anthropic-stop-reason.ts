import type { FinishReason } from '../../core/finish-reason.ts';
import type { AnthropicStopReason } from './anthropic-wire-types.ts';

/** Reads an upstream `stop_reason` (and `stop_sequence`) into a canonical finish reason. */
export function decodeAnthropicStopReason(stopReason: unknown, stopSequence: unknown): FinishReason {
  const raw = typeof stopReason === 'string' ? stopReason : undefined;
  switch (raw) {
    case 'end_turn':
    case 'pause_turn':
      return { unified: 'stop', raw };
    case 'stop_sequence':
      return typeof stopSequence === 'string' ? { unified: 'stop', raw, stopSequence } : { unified: 'stop', raw };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'refusal':
      return { unified: 'content-filter', raw };
    case undefined:
      return { unified: 'other' };
    default:
      return { unified: 'other', raw };
  }
}

/**
 * Picks the `stop_reason` to show an Anthropic client. Only the unified value counts (never a
 * foreign raw word), but tool calls in the content force `tool_use`: Claude Code runs tools
 * only when the stop reason says so, and some upstreams (Gemini) say `STOP` after a call.
 */
export function encodeAnthropicStopReason(finishReason: FinishReason, hasToolCalls: boolean): { stopReason: AnthropicStopReason; stopSequence: string | null } {
  const unified = finishReason.unified;
  switch (unified) {
    case 'stop':
      if (hasToolCalls) return { stopReason: 'tool_use', stopSequence: null };
      return finishReason.stopSequence === undefined
        ? { stopReason: 'end_turn', stopSequence: null }
        : { stopReason: 'stop_sequence', stopSequence: finishReason.stopSequence };
    case 'length':
      return { stopReason: 'max_tokens', stopSequence: null };
    case 'tool-calls':
      return { stopReason: 'tool_use', stopSequence: null };
    case 'content-filter':
      return { stopReason: 'refusal', stopSequence: null };
    case 'other':
    case 'error':
      return { stopReason: hasToolCalls ? 'tool_use' : 'end_turn', stopSequence: null };
    default: {
      const unreachable: never = unified;
      throw new Error(`unknown finish reason ${String(unreachable)}`);
    }
  }
}
