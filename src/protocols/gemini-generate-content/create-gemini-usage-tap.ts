import type { Usage } from '../../core/usage.ts';
import type { SseMessage } from '../sse/sse-message.ts';
import type { UsageTap } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { decodeGeminiUsage } from './convert-gemini-usage.ts';

/**
 * Meters a Gemini stream on the passthrough lane. `usageMetadata` is cumulative, so only the
 * last chunk that mentions it matters: keep that string and parse it once at the end, instead
 * of parsing every chunk of a long stream.
 */
export function createGeminiUsageTap(): UsageTap {
  let last: string | undefined;
  let parsed: Usage | undefined;
  let parsedFrom: string | undefined;
  return {
    observe(message: SseMessage): void {
      if (message.data.includes('"usageMetadata"')) last = message.data;
    },
    usage(): Usage | undefined {
      if (last === undefined) return undefined;
      if (parsedFrom !== last) {
        parsedFrom = last;
        parsed = readUsage(last);
      }
      return parsed;
    },
  };
}

function readUsage(data: string): Usage | undefined {
  try {
    const value: unknown = JSON.parse(data);
    const chunk = Array.isArray(value) ? value.findLast((item) => isRecord(item) && item.usageMetadata !== undefined) : value;
    return isRecord(chunk) ? decodeGeminiUsage(chunk.usageMetadata) : undefined;
  } catch {
    return undefined;
  }
}
