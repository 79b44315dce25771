import assert from 'node:assert/strict';

/** The client surfaces every key rule is checked on. */
export const GENERATION_SURFACES = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'antigravity'] as const;
export const LIST_SURFACES = ['openai-list', 'gemini-list', 'antigravity-list'] as const;
export type Surface = (typeof GENERATION_SURFACES)[number] | (typeof LIST_SURFACES)[number];

export interface SurfaceReply {
  status: number;
  /** The stable code, read from the body where the protocol carries it, else from the header. */
  code: string | undefined;
  message: string;
  retryAfter: string | null;
  requestId: string | null;
  body: any;
}

type KeyPlacement = { key?: string; header?: 'right' | 'wrong' };

/** Calls one surface the way its real clients do, and reads the error in that protocol's shape. */
export async function callSurface(
  baseUrl: string,
  surface: Surface,
  options: KeyPlacement & { model?: string; body?: Record<string, unknown> } = {},
): Promise<SurfaceReply> {
  const model = options.model ?? 'gpt-4o-mini';
  const { url, method, headers, body } = buildRequest(baseUrl, surface, model, options) as {
    url: string;
    method: string;
    headers: Record<string, string>;
    body: Record<string, unknown> | undefined;
  };
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify({ ...body, ...options.body }) }),
  });
  const text = await response.text();
  const parsed = text.startsWith('{') ? JSON.parse(text) : text;
  return {
    status: response.status,
    code: readCode(surface, parsed, response.headers),
    message: readMessage(surface, parsed),
    retryAfter: response.headers.get('retry-after'),
    requestId: response.headers.get('x-request-id'),
    body: parsed,
  };
}

function buildRequest(baseUrl: string, surface: Surface, model: string, options: KeyPlacement) {
  const key = options.key;
  const bearer = key === undefined ? {} : options.header === 'wrong' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
  switch (surface) {
    case 'openai-chat':
      return {
        url: `${baseUrl}/v1/chat/completions`,
        method: 'POST',
        headers: bearer,
        body: { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 },
      };
    case 'openai-responses':
      return { url: `${baseUrl}/v1/responses`, method: 'POST', headers: bearer, body: { model, input: 'hi', max_output_tokens: 100 } };
    case 'antigravity':
      return {
        url: `${baseUrl}/antigravity/v1/chat/completions`,
        method: 'POST',
        headers: bearer,
        body: { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 },
      };
    case 'anthropic': {
      const headers = key === undefined ? {} : options.header === 'wrong' ? { 'x-goog-api-key': key } : { 'x-api-key': key };
      return {
        url: `${baseUrl}/v1/messages`,
        method: 'POST',
        headers: { ...headers, 'anthropic-version': '2023-06-01' },
        body: { model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] },
      };
    }
    case 'gemini': {
      const headers = key === undefined ? {} : options.header === 'wrong' ? { 'x-api-key': key } : { 'x-goog-api-key': key };
      return {
        url: `${baseUrl}/v1beta/models/${encodeURIComponent(model)}:generateContent`,
        method: 'POST',
        headers,
        body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 100 } },
      };
    }
    case 'openai-list':
      return { url: `${baseUrl}/v1/models`, method: 'GET', headers: bearer, body: undefined };
    case 'antigravity-list':
      return { url: `${baseUrl}/antigravity/v1/models`, method: 'GET', headers: bearer, body: undefined };
    case 'gemini-list': {
      const headers = key === undefined ? {} : options.header === 'wrong' ? { 'x-api-key': key } : { 'x-goog-api-key': key };
      return { url: `${baseUrl}/v1beta/models`, method: 'GET', headers, body: undefined };
    }
    default: {
      const unreachable: never = surface;
      return unreachable;
    }
  }
}

function isGemini(surface: Surface): boolean {
  return surface === 'gemini' || surface === 'gemini-list';
}

function readCode(surface: Surface, body: any, headers: Headers): string | undefined {
  if (typeof body !== 'object' || body === null || body.error == null) return undefined;
  if (isGemini(surface)) return String(body.error.details?.[0]?.reason ?? '').toLowerCase() || undefined;
  if (surface === 'anthropic') return headers.get('x-switchyard-error-code') ?? undefined;
  return body.error.code;
}

function readMessage(surface: Surface, body: any): string {
  return typeof body === 'object' && body !== null ? String(body.error?.message ?? '') : '';
}

/** Asserts the protocol's own error shape for a given status, so real SDKs parse it. */
export function assertErrorShape(surface: Surface, reply: SurfaceReply, status: number): void {
  const { body } = reply;
  if (isGemini(surface)) {
    assert.equal(body.error.code, status);
    assert.equal(typeof body.error.status, 'string');
    assert.equal(body.error.details[0]['@type'], 'type.googleapis.com/google.rpc.ErrorInfo');
  } else if (surface === 'anthropic') {
    assert.equal(body.type, 'error');
    const type = { 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 429: 'rate_limit_error' }[status];
    assert.equal(body.error.type, type);
  } else {
    assert.equal(typeof body.error.type, 'string');
    assert.ok('param' in body.error);
  }
  assert.ok(reply.requestId, 'x-request-id header');
  assert.ok(reply.message.includes(`(request id: ${reply.requestId})`), `message carries the request id: ${reply.message}`);
}
