/** A failed call, with the gateway's own words when it gave any. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const SESSION_ENDED_EVENT = 'switchyard:session-ended';

export interface CallOptions {
  method?: string;
  body?: unknown;
  bearer?: string;
  headers?: Record<string, string>;
  /**
   * An account session: the HttpOnly cookie rides along (same origin only) and state-changing
   * calls carry the session's CSRF token in a header, which a cross-site page cannot read or set.
   */
  csrf?: string;
}

/**
 * The CSRF token of a named admin's console session (issue 29), or null when the operator signed
 * in with a token. Admin API calls made without a Bearer credential then ride on the session
 * cookie with this token, so the pages need not know how the operator signed in.
 */
let consoleCsrf: string | null = null;

export function setConsoleCsrf(csrf: string | null): void {
  consoleCsrf = csrf;
}

/** Calls the gateway on this origin. JSON in, JSON out; 204 gives undefined. */
export async function call<T>(path: string, givenOptions: CallOptions = {}): Promise<T> {
  const options =
    consoleCsrf !== null && !givenOptions.bearer && givenOptions.csrf === undefined && path.startsWith('/api/admin/') ? { ...givenOptions, csrf: consoleCsrf } : givenOptions;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      credentials: options.csrf === undefined ? 'omit' : 'same-origin',
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw new ApiError('The gateway could not be reached. Is it running, and is this the right address?', 0, null);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    // An account session that expired or was signed out elsewhere: the app returns to sign-in.
    if (response.status === 401 && options.csrf !== undefined && options.csrf !== '') dispatchEvent(new CustomEvent(SESSION_ENDED_EVENT));
    throw new ApiError(errorMessage(parsed, response.status), response.status, errorCode(parsed));
  }
  return parsed as T;
}

function errorMessage(body: unknown, status: number): string {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  if (typeof error === 'string') return error;
  if (status === 404) return 'This gateway does not offer that yet (404).';
  return `The gateway answered ${status}.`;
}

function errorCode(body: unknown): string | null {
  const error = (body as { error?: { code?: unknown; type?: unknown } } | undefined)?.error;
  if (error && typeof error === 'object') {
    if (typeof error.code === 'string') return error.code;
    if (typeof error.type === 'string') return error.type;
  }
  return null;
}

export function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405) && error.code !== 'model_not_found';
}
