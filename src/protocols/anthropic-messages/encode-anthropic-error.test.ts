import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { decodeAnthropicError } from './decode-anthropic-error.ts';
import { encodeAnthropicError } from './encode-anthropic-error.ts';

describe('Anthropic errors', () => {
  test('encode: Anthropic shape, type by status, request id in the message and the body', () => {
    assert.deepEqual(encodeAnthropicError(invalidRequest('"model" is required.', 'model'), 'req_1'), {
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: '"model" is required. (request id: req_1)' },
        request_id: 'req_1',
      },
    });
    const typeFor = (error: GatewayError) => (encodeAnthropicError(error, 'r').body as { error: { type: string } }).error.type;
    assert.equal(typeFor(new GatewayError('invalid_api_key', 'x')), 'authentication_error');
    assert.equal(typeFor(new GatewayError('insufficient_balance', 'x', { status: 402 })), 'billing_error');
    assert.equal(typeFor(new GatewayError('key_disabled', 'x')), 'permission_error');
    assert.equal(typeFor(new GatewayError('model_not_found', 'x')), 'not_found_error');
    assert.equal(typeFor(new GatewayError('body_too_large', 'x')), 'request_too_large');
    assert.equal(typeFor(new GatewayError('rate_limited', 'x')), 'rate_limit_error');
    assert.equal(typeFor(new GatewayError('internal_error', 'x')), 'api_error');
    assert.equal(typeFor(new GatewayError('upstream_error', 'x')), 'api_error');
    assert.equal(typeFor(new GatewayError('no_available_channel', 'x')), 'api_error');
    assert.equal(typeFor(new GatewayError('upstream_error', 'x', { status: 529 })), 'overloaded_error');
    assert.equal(typeFor(new GatewayError('upstream_timeout', 'x')), 'timeout_error');
    assert.equal(typeFor(new GatewayError('method_not_allowed', 'x')), 'invalid_request_error');
    assert.equal(encodeAnthropicError(new GatewayError('upstream_error', 'x', { status: 529 }), 'r').status, 529);
  });

  test('decode: Anthropic, OpenAI-shaped, text and junk bodies', () => {
    assert.deepEqual(decodeAnthropicError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), {
      message: 'Overloaded',
      type: 'overloaded_error',
    });
    assert.deepEqual(decodeAnthropicError(400, { error: { message: 'bad', type: 'invalid_request_error' } }), {
      message: 'bad',
      type: 'invalid_request_error',
    });
    assert.deepEqual(decodeAnthropicError(502, '<html>Bad Gateway</html>'), { message: '<html>Bad Gateway</html>' });
    assert.deepEqual(decodeAnthropicError(500, { error: 'boom' }), { message: 'boom' });
    assert.match(decodeAnthropicError(503, null).message, /HTTP 503/);
    assert.match(decodeAnthropicError(503, [1, 2]).message, /HTTP 503/);
    assert.match(decodeAnthropicError(503, '').message, /HTTP 503/);
  });
});
