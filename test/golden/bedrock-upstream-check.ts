import { checkConverseRequest } from '../simulator/converse-request-rules.ts';
import type { CapturedRequest, RefusalReply } from './fake-upstream.ts';

const AWS_ERROR_NAMESPACE = 'http://internal.amazon.com/coral/com.amazon.bedrock/';

/** Bedrock's REST-JSON error: `{"message": …}`, the type in `x-amzn-errortype`. */
export function bedrockError(status: number, type: string, message: string): RefusalReply {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': `${type}:${AWS_ERROR_NAMESPACE}`, 'x-amzn-requestid': 'golden-request-0001' },
    body: JSON.stringify({ message }),
  };
}

/** The headers a recorded Bedrock reply goes out with. */
export function bedrockReplyHeaders(status: number): Record<string, string> {
  const headers: Record<string, string> = { 'x-amzn-requestid': 'golden-request-0001' };
  // Bedrock sends no retry-after on throttling; the type is in this header only.
  if (status === 429) headers['x-amzn-errortype'] = `ThrottlingException:${AWS_ERROR_NAMESPACE}`;
  return headers;
}

/**
 * What bedrock-runtime checks before answering a Converse call made with a Bedrock API key:
 * the path (`/model/{modelId}/converse` or `/converse-stream`, the id percent-encoded), the
 * bearer key, the JSON content type, the event-stream accept header on streams, and the body's
 * shape (`checkConverseRequest`, shared with the provider simulator).
 */
export function checkBedrockRequest(request: CapturedRequest, expected: { modelId: string; stream: boolean; apiKey: string }): RefusalReply | undefined {
  const path = `/model/${encodeURIComponent(expected.modelId)}/${expected.stream ? 'converse-stream' : 'converse'}`;
  if (request.method !== 'POST' || request.url !== path)
    return bedrockError(404, 'UnknownOperationException', `No operation at ${request.method} ${request.url}; expected POST ${path}.`);
  if (request.headers.authorization !== `Bearer ${expected.apiKey}`)
    return bedrockError(403, 'UnrecognizedClientException', 'Invalid API Key format: Must start with pre-defined prefix');
  if (!/^application\/json\b/.test(request.headers['content-type'] ?? ''))
    return bedrockError(415, 'UnsupportedMediaTypeException', 'Converse takes application/json.');
  if (expected.stream && request.headers.accept !== 'application/vnd.amazon.eventstream') {
    return bedrockError(406, 'ValidationException', 'ConverseStream answers application/vnd.amazon.eventstream.');
  }
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return bedrockError(400, 'SerializationException', 'Malformed JSON body.');
  }
  const finding = checkConverseRequest(body);
  return finding === undefined ? undefined : bedrockError(400, 'ValidationException', finding);
}
