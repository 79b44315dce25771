import type { GoldenCase, Mode } from './golden-cases.ts';

export type RecordedFormat = 'json' | 'sse' | 'eventstream';

/** How each format's body is stored on disk: event-stream frames are bytes, the rest text. */
export const RECORDED_ENCODING: Record<RecordedFormat, BufferEncoding> = { json: 'utf8', sse: 'utf8', eventstream: 'latin1' };

/** A recorded upstream reply as the fake upstream replays it: status plus the exact body text. */
export interface RecordedReply {
  status: number;
  /**
   * `sse` bodies are replayed as `text/event-stream`, `json` as `application/json`,
   * `eventstream` (Bedrock's binary AWS event-stream frames, carried as a latin1 string) as
   * `application/vnd.amazon.eventstream`.
   */
  format: RecordedFormat;
  body: string;
}

export type ReplyBuilder = (goldenCase: GoldenCase, mode: Mode, model: string) => RecordedReply;

/** Splits text into up to three word-aligned pieces, the way providers chunk deltas. */
export function splitText(text: string): string[] {
  const words = text.split(/(?<= )/);
  if (words.length < 3) return [text];
  const size = Math.ceil(words.length / 3);
  const pieces: string[] = [];
  for (let start = 0; start < words.length; start += size) pieces.push(words.slice(start, start + size).join(''));
  return pieces;
}

/** Splits a JSON argument string in two, mid-token, as streamed tool arguments really arrive. */
export function splitArguments(json: string): string[] {
  const middle = Math.floor(json.length / 2);
  return [json.slice(0, middle), json.slice(middle)];
}

export const json = (status: number, value: unknown): RecordedReply => ({ status, format: 'json', body: `${JSON.stringify(value, null, 2)}\n` });
