import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.ts';

export type OpenAiFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** An upstream `finish_reason` → canonical, keeping the raw word for logs. */
export function mapOpenAiFinishReason(raw: unknown): FinishReason {
  if (typeof raw !== 'string') return { unified: 'other' };
  switch (raw) {
    case 'stop':
      return { unified: 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    default:
      return { unified: 'other', raw };
  }
}

/** Canonical → the wire word, from `unified` only so no foreign raw value leaks out. */
export function toOpenAiFinishReason(unified: UnifiedFinishReason): OpenAiFinishReason {
  switch (unified) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    // OpenAI has no word for these; `stop` is what clients treat as a normal end.
    case 'error':
    case 'other':
      return 'stop';
    default: {
      const unreachable: never = unified;
      return unreachable;
    }
  }
}
