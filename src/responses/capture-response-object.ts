import { createParser } from 'eventsource-parser';

/** Terminal Responses events that carry the whole response object. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete']);

export interface ResponseCapture {
  head(status: number): void;
  observe(chunk: string | Uint8Array): void;
  /** The response object the client received whole (status 200 and a final event), else undefined. */
  result(): Record<string, unknown> | undefined;
}

/**
 * Reads the response object out of a Responses reply as it goes to the client: the JSON body
 * of a plain reply, or the `response` of the final event of a stream (the only event parsed;
 * deltas are skipped by name). It sees exactly what the client sees, on either lane.
 */
export function captureResponseObject(stream: boolean): ResponseCapture {
  let status: number | undefined;
  const decoder = new TextDecoder();
  let text = '';
  let final: Record<string, unknown> | undefined;
  const parser = createParser({
    onEvent(event) {
      if (event.event === undefined || !FINAL_EVENTS.has(event.event)) return;
      const data = parseObject(event.data);
      const response = data?.response;
      if (isObject(response)) final = response;
    },
  });
  return {
    head(value) {
      status = value;
    },
    observe(chunk) {
      const piece = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (stream) parser.feed(piece);
      else text += piece;
    },
    result() {
      if (status !== 200) return undefined;
      if (stream) return final;
      return parseObject(text);
    },
  };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
