/** A data-only SSE event (OpenAI chat, Gemini alt=sse use no `event:` line). */
export function dataFrame(payload: unknown, lineEnd = '\n'): string {
  return `data: ${JSON.stringify(payload)}${lineEnd}${lineEnd}`;
}

/** A named SSE event whose data carries the same `type` (Anthropic, OpenAI Responses). */
export function namedFrame(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}
