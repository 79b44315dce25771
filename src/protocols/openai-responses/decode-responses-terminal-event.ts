import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { isRecord } from '../shared/is-record.ts';
import { convertOpenAiResponsesUsage } from './convert-openai-responses-usage.ts';
import { mapOpenAiResponsesStatus } from './map-openai-responses-status.ts';
import { closeDecodedBlock, failDecodedStream, str, type ResponsesDecoderState } from './responses-decoder-state.ts';

/** `response.completed` / `response.incomplete` → usage and `response-end`. */
export function decodeResponseDone(
  state: ResponsesDecoderState,
  events: StreamEvent[],
  type: string,
  response: Record<string, unknown> | undefined,
): StreamEvent[] {
  closeDecodedBlock(state, events);
  state.finished = true;
  const body = response ?? {};
  const usage = convertOpenAiResponsesUsage(body.usage, body.output);
  if (usage) events.push({ type: 'usage', usage });
  const reason = isRecord(body.incomplete_details) ? body.incomplete_details.reason : undefined;
  const status = body.status ?? (type === 'response.completed' ? 'completed' : 'incomplete');
  const finishReason = mapOpenAiResponsesStatus(status, reason, state.sawToolCall);
  events.push(usage ? { type: 'response-end', finishReason, usage } : { type: 'response-end', finishReason });
  return events;
}

/** `response.failed` or a bare `error` event → the upstream's error, keeping its code. */
export function decodeResponseFailed(
  state: ResponsesDecoderState,
  events: StreamEvent[],
  type: string,
  event: Record<string, unknown>,
  response: Record<string, unknown> | undefined,
): StreamEvent[] {
  const source = type === 'error' ? event : isRecord(response?.error) ? response.error : {};
  const message = str(source.message) || 'The upstream reported a failed response.';
  const code = str(source.code);
  return failDecodedStream(state, events, new GatewayError('upstream_error', message, code === '' ? {} : { upstreamType: code }));
}
