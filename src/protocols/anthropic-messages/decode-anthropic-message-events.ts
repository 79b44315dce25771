import { GatewayError } from '../../core/gateway-error.ts';
import type { StreamEvent } from '../../core/stream-event.ts';
import { isRecord } from '../shared/is-record.ts';
import { closeAllDecodedBlocks, type AnthropicDecoderState } from './anthropic-decoder-state.ts';
import { decodeAnthropicUsage, mergeAnthropicUsage } from './convert-anthropic-usage.ts';
import { decodeAnthropicStopReason } from './map-anthropic-stop-reason.ts';

/** `message_start` → `response-start` plus the input usage it reports. */
export function decodeMessageStart(state: AnthropicDecoderState, payload: Record<string, unknown>): StreamEvent[] {
  const message = isRecord(payload.message) ? payload.message : {};
  const usage = decodeAnthropicUsage(message.usage);
  state.usage = usage;
  return [
    {
      type: 'response-start',
      id: typeof message.id === 'string' ? message.id : state.context.generateId('msg_'),
      model: typeof message.model === 'string' ? message.model : '',
      createdAt: state.context.now(),
    },
    { type: 'usage', usage },
  ];
}

/** `message_delta`: the stop reason and cumulative usage, kept until `message_stop`. */
export function decodeMessageDelta(state: AnthropicDecoderState, payload: Record<string, unknown>): StreamEvent[] {
  const messageDelta = isRecord(payload.delta) ? payload.delta : {};
  if (messageDelta.stop_reason !== undefined && messageDelta.stop_reason !== null) {
    state.finishReason = decodeAnthropicStopReason(messageDelta.stop_reason, messageDelta.stop_sequence);
  }
  if (isRecord(payload.usage)) state.usage = mergeAnthropicUsage(state.usage, payload.usage);
  return [];
}

/** `message_stop` → open blocks closed, then `response-end` with what `message_delta` said. */
export function decodeMessageStop(state: AnthropicDecoderState): StreamEvent[] {
  state.done = true;
  const end: StreamEvent = { type: 'response-end', finishReason: state.finishReason ?? { unified: 'other' } };
  if (state.usage) end.usage = state.usage;
  return [...closeAllDecodedBlocks(state), end];
}

/** Anthropic's in-stream `event: error` as a gateway error that keeps the upstream's type. */
export function decodeUpstreamError(payload: Record<string, unknown>): StreamEvent {
  const inner = isRecord(payload.error) ? payload.error : {};
  const type = typeof inner.type === 'string' ? inner.type : undefined;
  const message = typeof inner.message === 'string' && inner.message !== '' ? inner.message : 'The upstream reported an error mid-stream.';
  const options = type === undefined ? {} : { upstreamType: type };
  const error =
    type === 'rate_limit_error'
      ? new GatewayError('upstream_rate_limited', message, options)
      : new GatewayError('upstream_error', message, type === 'overloaded_error' ? { ...options, status: 529 } : options);
  return { type: 'error', error };
}

/** A stream the gateway cannot follow: reported as the upstream's fault. */
export function malformedAnthropicStream(detail: string): StreamEvent {
  return {
    type: 'error',
    error: new GatewayError('upstream_invalid_response', `The upstream Anthropic stream was malformed: ${detail}.`),
  };
}
