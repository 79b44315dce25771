import type { ClientRequestInput, RequestPeek } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { peekBody } from '../shared/peek-body.ts';

/** The client asked for a final usage chunk (`stream_options.include_usage`). */
export function readOpenAiChatIncludeUsage(body: unknown): boolean {
  return isRecord(body) && isRecord(body.stream_options) && body.stream_options.include_usage === true;
}

export function peekOpenAiChatRequest(input: ClientRequestInput): RequestPeek {
  return peekBody(input, readOpenAiChatIncludeUsage, 'messages');
}
