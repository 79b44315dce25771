import type { Usage } from '../../core/usage.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { UsageTap } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertOpenAiResponsesUsage } from './convert-openai-responses-usage.ts';

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** True for the final lifecycle event, read from the `event:` line or, without one, a byte scan. */
function isFinal(message: SseMessage): boolean {
  if (message.event !== undefined) return FINAL_EVENTS.has(message.event);
  return (
    message.data.includes('"type":"response.completed"') ||
    message.data.includes('"type":"response.incomplete"') ||
    message.data.includes('"type":"response.failed"')
  );
}

/** Meters a passthrough Responses stream by parsing only its final lifecycle event. */
export function createOpenAiResponsesUsageTap(): UsageTap {
  let last: Usage | undefined;
  return {
    observe(message: SseMessage): void {
      if (!isFinal(message)) return;
      try {
        const event: unknown = JSON.parse(message.data);
        const response = isRecord(event) && isRecord(event.response) ? event.response : undefined;
        const usage = convertOpenAiResponsesUsage(response?.usage, response?.output);
        if (usage) last = usage;
      } catch {
        // Metering keeps the last good count; the relay reports broken streams.
      }
    },
    usage: () => last,
  };
}
