import type { Usage } from '../../core/usage.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { UsageTap } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { mergeAnthropicUsage } from './convert-anthropic-usage.ts';

/**
 * Meters a passthrough Anthropic stream. Only `message_start` and `message_delta` carry usage,
 * and the event name is checked before any JSON is parsed, so text deltas cost nothing.
 */
export function createAnthropicUsageTap(): UsageTap {
  let usage: Usage | undefined;
  return {
    observe(message: SseMessage): void {
      if (message.event !== 'message_start' && message.event !== 'message_delta') return;
      let payload: unknown;
      try {
        payload = JSON.parse(message.data);
      } catch {
        return;
      }
      if (!isRecord(payload)) return;
      if (message.event === 'message_start') {
        const start = isRecord(payload.message) ? payload.message : {};
        if (isRecord(start.usage)) usage = mergeAnthropicUsage(undefined, start.usage);
      } else if (isRecord(payload.usage)) {
        usage = mergeAnthropicUsage(usage, payload.usage);
      }
    },
    usage(): Usage | undefined {
      return usage;
    },
  };
}
