import type { ClientRequestInput, RequestPeek } from '../protocol-codec.ts';
import { isRecord } from './is-record.ts';

/** The peek of protocols that name the model and the stream choice in the body (all but Gemini). */
export function peekBody(input: ClientRequestInput, includeUsage: (body: Record<string, unknown>) => boolean): RequestPeek {
  const body = input.body;
  if (!isRecord(body)) return { model: undefined, stream: false, includeUsage: false };
  return {
    model: typeof body.model === 'string' ? body.model : undefined,
    stream: body.stream === true,
    includeUsage: includeUsage(body),
  };
}
