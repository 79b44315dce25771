import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../core/gateway-error.ts';
import { classifyFailure } from './classify-failure.ts';
import { extractUpstreamErrorCodes } from './upstream-error-codes.ts';

const RETRY = new Set([408, 429, 500, 502, 503, 504]);

/** An upstream error as read-upstream-error.ts builds it: the status and the body's structured identifiers. */
function upstream(status: number, body: unknown): GatewayError {
  const upstreamCodes = extractUpstreamErrorCodes(body);
  return new GatewayError('upstream_error', `The upstream provider answered ${status}`, { status, ...(upstreamCodes.length > 0 ? { upstreamCodes } : {}) });
}

test("the channel's own configuration: 405, a 404 that is no provider error, a 404 naming a missing model or deployment", () => {
  const cases: Array<[string, number, unknown]> = [
    ['405 from any server', 405, { error: { message: 'Method Not Allowed', type: 'invalid_request_error' } }],
    ['a web server page', 404, '<html><body>404 Not Found</body></html>'],
    ['Ollama / Go', 404, '404 page not found'],
    ['FastAPI (vLLM) route', 404, { detail: 'Not Found' }],
    [
      'OpenAI model_not_found',
      404,
      { error: { message: 'The model `x` does not exist', type: 'invalid_request_error', param: null, code: 'model_not_found' } },
    ],
    ['Azure unknown deployment', 404, { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' } }],
  ];
  for (const [name, status, body] of cases) {
    assert.deepEqual(classifyFailure(upstream(status, body), status, RETRY), { failureClass: 'misconfigured', scope: 'model' }, name);
  }
});

test("a generic not-found stays the client's: it also answers a file, cached content or response the client named", () => {
  const cases: Array<[string, unknown]> = [
    ['Anthropic', { type: 'error', error: { type: 'not_found_error', message: 'File not found: file_011' } }],
    ['Gemini', { error: { code: 404, message: 'CachedContent not found', status: 'NOT_FOUND' } }],
    ['OpenAI untyped', { error: { message: 'No conversation found', type: 'invalid_request_error', param: 'conversation', code: null } }],
  ];
  for (const [name, body] of cases) assert.equal(classifyFailure(upstream(404, body), 404, RETRY).failureClass, 'request', name);
  // Words in a message never decide: a 400 quoting "model_not_found" is the client's.
  assert.equal(classifyFailure(upstream(400, { error: { message: 'model_not_found', type: 'invalid_request_error' } }), 400, RETRY).failureClass, 'request');
});
