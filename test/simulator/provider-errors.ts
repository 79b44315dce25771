import type { SimulatorProtocol } from './recorded-request.ts';

export interface ErrorReply {
  status: number;
  body: unknown;
  /** Headers the provider sends with the error (Bedrock names the type only in `x-amzn-errortype`). */
  headers?: Record<string, string>;
}

type ErrorFamily = 'openai' | 'anthropic' | 'gemini';

export function errorFamily(protocol: SimulatorProtocol): ErrorFamily {
  switch (protocol) {
    case 'openai-chat':
    case 'openai-responses':
    case 'unknown':
      return 'openai';
    case 'anthropic-messages':
      return 'anthropic';
    case 'gemini-generate-content':
      return 'gemini';
    case 'bedrock-converse':
      // Bedrock errors have their own shape (awsError below); no model catalog is served for it.
      return 'openai';
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

const OPENAI_TYPES: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported.' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist or you do not have access to it.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later.' },
};

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const GEMINI_STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function fallbackOpenAi(status: number) {
  if (status >= 500) return OPENAI_TYPES[500]!;
  return { type: 'invalid_request_error', code: null, message: `Request failed with status ${status}.` };
}

/** An error body in the exact shape the provider behind `protocol` uses. */
export function providerError(protocol: SimulatorProtocol, status: number, message?: string): ErrorReply {
  if (protocol === 'bedrock-converse') return awsError(status, message);
  const family = errorFamily(protocol);
  switch (family) {
    case 'openai': {
      const known = OPENAI_TYPES[status] ?? fallbackOpenAi(status);
      return { status, body: { error: { message: message ?? known.message, type: known.type, param: null, code: known.code } } };
    }
    case 'anthropic': {
      const type = ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
      return { status, body: { type: 'error', error: { type, message: message ?? defaultMessage(type) } } };
    }
    case 'gemini': {
      const statusName = GEMINI_STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
      return { status, body: { error: { code: status, message: message ?? `Request failed: ${statusName}.`, status: statusName } } };
    }
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
}

function defaultMessage(type: string): string {
  return type === 'overloaded_error' ? 'Overloaded' : `Request failed: ${type}.`;
}

/** What each provider answers for a missing or wrong key. */
export function authenticationError(protocol: SimulatorProtocol, presented: string | undefined): ErrorReply {
  const family = errorFamily(protocol);
  switch (family) {
    case 'openai':
      return providerError(
        protocol,
        401,
        presented === undefined
          ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
          : `Incorrect API key provided: ${maskKey(presented)}.`,
      );
    case 'anthropic':
      return providerError(protocol, 401, presented === undefined ? 'x-api-key header is required' : 'invalid x-api-key');
    case 'gemini': {
      const reply = providerError(protocol, 401, 'API key not valid. Please pass a valid API key.');
      const error = (reply.body as { error: Record<string, unknown> }).error;
      error.details = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }];
      return reply;
    }
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
}

function maskKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`;
}

/** What a non-streaming request gets when its script asks for an in-stream error. */
export function overloadedError(protocol: SimulatorProtocol): ErrorReply {
  if (protocol === 'bedrock-converse') return awsError(503, 'Bedrock is unable to process your request.');
  const family = errorFamily(protocol);
  switch (family) {
    case 'openai':
      return providerError(protocol, 503);
    case 'anthropic':
      return providerError(protocol, 529, 'Overloaded');
    case 'gemini':
      return providerError(protocol, 503, 'The model is overloaded. Please try again later.');
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
}

const AWS_TYPES: Record<number, { type: string; message: string }> = {
  400: { type: 'ValidationException', message: 'The provided request is not valid.' },
  403: { type: 'AccessDeniedException', message: "You don't have access to the model with the specified model ID." },
  404: { type: 'ResourceNotFoundException', message: 'The requested resource could not be found.' },
  408: { type: 'ModelTimeoutException', message: 'The request took too long to process.' },
  424: { type: 'ModelErrorException', message: 'The model returned an error.' },
  429: { type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
  500: { type: 'InternalServerException', message: 'An internal server error occurred. Retry your request.' },
  503: { type: 'ServiceUnavailableException', message: 'Bedrock is unable to process your request.' },
};

/** Bedrock's REST-JSON errors: `{"message": …}`, the type in the `x-amzn-ErrorType` header. */
export function awsError(status: number, message?: string): ErrorReply & { errorType: string; headers: Record<string, string> } {
  const known = AWS_TYPES[status] ?? {
    type: status >= 500 ? 'InternalServerException' : 'ValidationException',
    message: `Request failed with status ${status}.`,
  };
  return {
    status,
    body: { message: message ?? known.message },
    errorType: known.type,
    headers: { 'x-amzn-errortype': `${known.type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
  };
}
