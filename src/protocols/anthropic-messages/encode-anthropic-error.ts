import type { GatewayError } from '../../core/gateway-error.ts';
import type { ErrorBody } from '../protocol-codec.ts';
import { anthropicErrorType } from './anthropic-error-type.ts';

/** Renders a gateway error as Anthropic's `{type:"error", error:{type, message}, request_id}`. */
export function encodeAnthropicError(error: GatewayError, requestId: string): ErrorBody {
  return {
    status: error.status,
    body: {
      type: 'error',
      error: {
        type: anthropicErrorType(error.status),
        message: `${error.message} (request id: ${requestId})`,
      },
      request_id: requestId,
    },
  };
}
