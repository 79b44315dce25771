import type { GatewayError } from '../../core/gateway-error.ts';
import type { ErrorBody } from '../protocol-codec.ts';
import type { GeminiErrorBody } from './gemini-wire.ts';
import { withRequestId } from '../shared/with-request-id.ts';

/** HTTP status → the google.rpc status name Gemini clients switch on. */
export function geminiStatusName(status: number): string {
  switch (status) {
    case 400:
    case 413:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 502:
    case 503:
    case 529: // Anthropic's "overloaded": temporary, worth a retry, like Google's own 503.
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  }
}

/** A gateway error in Gemini's shape, with the request id in the message for support. */
export function encodeGeminiErrorBody(error: GatewayError, requestId: string | undefined): GeminiErrorBody {
  return {
    error: {
      code: error.status,
      message: withRequestId(error.message, requestId),
      status: geminiStatusName(error.status),
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: error.code.toUpperCase(),
          domain: 'switchyard',
        },
      ],
    },
  };
}

export function encodeGeminiError(error: GatewayError, requestId: string): ErrorBody {
  return { status: error.status, body: encodeGeminiErrorBody(error, requestId) };
}

/** The error chunk that ends a Gemini stream (no request id: the stream's headers carry it). */
export function encodeGeminiStreamError(error: GatewayError): GeminiErrorBody {
  return { error: { code: error.status, message: error.message, status: geminiStatusName(error.status) } };
}
