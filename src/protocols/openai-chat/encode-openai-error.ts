import type { GatewayError } from '../../core/gateway-error.ts';
import type { ErrorBody } from '../protocol-codec.ts';
import { withRequestId } from '../shared/with-request-id.ts';

export interface OpenAiErrorPayload {
  message: string;
  type: string;
  param: string | null;
  code: string;
}

/** OpenAI's `type` word for a status class, as its own API reports them. */
export function openAiErrorType(status: number): string {
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function toOpenAiErrorPayload(error: GatewayError, requestId: string | undefined): OpenAiErrorPayload {
  return {
    message: withRequestId(error.message, requestId),
    type: openAiErrorType(error.status),
    param: error.param ?? null,
    code: error.code,
  };
}

/** Renders a gateway error the way the OpenAI SDKs read one: `{error:{message,type,param,code}}`. */
export function encodeOpenAiError(error: GatewayError, requestId: string | undefined): ErrorBody {
  return { status: error.status, body: { error: toOpenAiErrorPayload(error, requestId) } };
}
