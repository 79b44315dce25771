import type { Usage } from '../../core/usage.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { UsageTap } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertOpenAiUsage } from './convert-openai-usage.ts';

/** True when the text has `"usage":` followed (after optional spaces) by an object. */
export function hasUsageObject(data: string): boolean {
  let from = 0;
  for (;;) {
    const at = data.indexOf('"usage":', from);
    if (at === -1) return false;
    let next = at + 8;
    while (data.charCodeAt(next) === 32) next += 1;
    if (data.charCodeAt(next) === 123 /* { */) return true;
    from = next;
  }
}

/**
 * Meters a passthrough chat stream: only chunks that carry a usage object are parsed (a byte
 * scan skips the rest), and the last one wins because it is the total. A class, not closures:
 * one lives as long as its stream.
 */
export class OpenAiChatUsageTap implements UsageTap {
  #last: Usage | undefined;

  observe(message: SseMessage): void {
    if (!hasUsageObject(message.data)) return;
    try {
      const chunk: unknown = JSON.parse(message.data);
      const usage = isRecord(chunk) ? convertOpenAiUsage(chunk.usage) : undefined;
      if (usage) this.#last = usage;
    } catch {
      // A broken chunk is the relay's problem to report; metering keeps the last good count.
    }
  }

  usage(): Usage | undefined {
    return this.#last;
  }
}

export function createOpenAiChatUsageTap(): UsageTap {
  return new OpenAiChatUsageTap();
}
