/**
 * A structural check of one passthrough event's payload: JSON objects start with `{` and end
 * with `}` (OpenAI's `[DONE]` sentinel passes too). Catches a truncated event without paying
 * for a parse on every chunk of a healthy stream.
 */
export function looksWellFormed(data: string): boolean {
  if (data === '[DONE]') return true;
  const first = data.charCodeAt(0);
  let end = data.length - 1;
  while (end > 0 && (data.charCodeAt(end) === 32 || data.charCodeAt(end) === 10 || data.charCodeAt(end) === 13)) end -= 1;
  return first === 123 /* { */ && data.charCodeAt(end) === 125 /* } */;
}
