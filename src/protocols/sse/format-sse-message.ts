import type { SseMessage } from './sse-message.ts';

/**
 * Frames one event for the wire. Multi-line data becomes several `data:` lines as the SSE
 * spec requires; JSON produced by `JSON.stringify` never contains a raw newline, so the fast
 * path is a single concatenation.
 */
export function formatSseMessage(message: SseMessage): string {
  const eventLine = message.event === undefined ? '' : `event: ${message.event}\n`;
  const idLine = message.id === undefined ? '' : `id: ${message.id}\n`;
  const data = message.data.includes('\n')
    ? message.data
        .split(/\r\n|\r|\n/)
        .map((line) => `data: ${line}`)
        .join('\n')
    : `data: ${message.data}`;
  return `${eventLine}${idLine}${data}\n\n`;
}

/** `formatSseMessage` for the common case of a JSON payload. */
export function formatSseJson(payload: unknown, event?: string): string {
  const data = JSON.stringify(payload);
  return event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`;
}
