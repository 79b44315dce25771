import type { ChatResponse } from '../../core/chat-response.ts';
import { GatewayError } from '../../core/gateway-error.ts';
import type { RuntimeContext } from '../../core/runtime-context.ts';
import { emptyUsage } from '../shared/canonical-usage.ts';
import type { Decoded } from '../protocol-codec.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertOpenAiResponsesUsage } from './convert-openai-responses-usage.ts';
import { decodeOpenAiResponsesOutput } from './decode-openai-responses-output.ts';
import { mapOpenAiResponsesStatus } from './map-openai-responses-status.ts';

/** An upstream's non-streamed Response object → canonical. A failed response is an error. */
export function decodeOpenAiResponsesResponse(body: unknown, context: RuntimeContext): Decoded<ChatResponse> {
  if (!isRecord(body) || !Array.isArray(body.output)) {
    throw new GatewayError('upstream_invalid_response', 'The upstream response could not be read: it has no output array.');
  }
  if (body.status === 'failed') {
    const error = isRecord(body.error) ? body.error : {};
    const message = typeof error.message === 'string' ? error.message : 'The upstream reported a failed response.';
    throw new GatewayError('upstream_error', message, typeof error.code === 'string' ? { upstreamType: error.code } : {});
  }
  const content = decodeOpenAiResponsesOutput(body.output);
  const incomplete = isRecord(body.incomplete_details) ? body.incomplete_details.reason : undefined;
  return {
    value: {
      id: typeof body.id === 'string' ? body.id : context.generateId('resp_'),
      model: typeof body.model === 'string' ? body.model : '',
      createdAt: typeof body.created_at === 'number' ? body.created_at * 1000 : context.now(),
      content,
      finishReason: mapOpenAiResponsesStatus(
        body.status,
        incomplete,
        content.some((part) => part.type === 'tool-call'),
      ),
      usage: convertOpenAiResponsesUsage(body.usage, body.output) ?? emptyUsage(),
    },
    warnings: [],
  };
}
