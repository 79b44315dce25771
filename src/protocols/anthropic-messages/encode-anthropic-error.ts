import type { GatewayError } from '../../core/gateway-error.ts';
import type { ErrorBody } from '../protocol-codec.ts';
import { anthropicErrorType } from './anthropic-error-type.ts';
import { withRequestId } from '../shared/with-request-id.ts';

/** Renders a gateway error as Anthropic's `{type:"error", error:{type, message}, request_id}`. */
export function encodeAnthropicError(error: GatewayError, requestId: string | undefined): ErrorBody {
  return {
    status: error.status,
    body: {
      type: 'error',
      error: {
        type: anthropicErrorType(error.status),
        message: withRequestId(error.message, requestId),
      },
      request_id: requestId ?? null,
    },
  };
}
