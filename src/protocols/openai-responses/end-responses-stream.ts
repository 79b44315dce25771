import type { FinishReason } from '../../core/finish-reason.ts';
import type { GatewayError } from '../../core/gateway-error.ts';
import type { Usage } from '../../core/usage.ts';
import { emptyUsage } from '../shared/canonical-usage.ts';
import { closeOutputItem, partialOutputItem } from './close-responses-output-item.ts';
import { toOpenAiResponsesStatus } from './map-openai-responses-status.ts';
import { emitResponsesEvent, responsesSnapshot, startResponsesStream, type ResponsesEncoderState } from './responses-encoder-state.ts';

/** The Responses error codes clients act on (Codex retries rate limits, stops on quota). */
function responsesErrorCode(error: GatewayError): string {
  switch (error.code) {
    case 'rate_limited':
    case 'upstream_rate_limited':
      return 'rate_limit_exceeded';
    case 'insufficient_balance':
    case 'spend_limit_reached':
      return 'insufficient_quota';
    case 'invalid_request':
      return 'invalid_prompt';
    default:
      return 'server_error';
  }
}

/** `response-end` → `response.completed` or `response.incomplete` with every item. */
export function finishResponsesStream(state: ResponsesEncoderState, finishReason: FinishReason, usageAtEnd: Usage | undefined): string {
  const out = startResponsesStream(state) + closeOutputItem(state);
  const { status, incomplete_details } = toOpenAiResponsesStatus(finishReason.unified);
  state.closed = true;
  const final = responsesSnapshot(state, {
    status,
    output: state.output,
    usage: usageAtEnd ?? state.usage ?? emptyUsage(),
    incompleteDetails: incomplete_details,
  });
  return out + emitResponsesEvent(state, status === 'completed' ? 'response.completed' : 'response.incomplete', { response: final });
}

/** `error` → `response.failed`. The failed response keeps what the client already saw, marked unfinished. */
export function failResponsesStream(state: ResponsesEncoderState, error: GatewayError): string {
  const out = startResponsesStream(state);
  state.closed = true;
  if (state.current) state.output[state.current.index] = partialOutputItem(state.current);
  const failure = { code: responsesErrorCode(error), message: error.message };
  const usage = state.usage;
  return (
    out +
    emitResponsesEvent(state, 'response.failed', {
      response: responsesSnapshot(state, { status: 'failed', output: state.output, error: failure, ...(usage ? { usage } : {}) }),
    })
  );
}
