import type { AnthropicErrorType } from './anthropic-wire-types.ts';

const KNOWN_TYPES: ReadonlySet<string> = new Set<AnthropicErrorType>([
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'api_error',
  'timeout_error',
  'overloaded_error',
]);

/** The error `type` Anthropic uses for an HTTP status; clients branch on it (529 → retry). */
export function anthropicErrorType(status: number): AnthropicErrorType {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 400 && status < 500 ? 'invalid_request_error' : 'api_error';
  }
}

export function isAnthropicErrorType(value: unknown): value is AnthropicErrorType {
  return typeof value === 'string' && KNOWN_TYPES.has(value);
}
