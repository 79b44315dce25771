import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../core/gateway-error.ts';
import { encodeErrorReply } from './encode-error-reply.ts';

test('an error reply carries the protocol’s shape, the stable code and retry-after', () => {
  const error = new GatewayError('upstream_rate_limited', 'slow down', { status: 429, retryAfterSeconds: 1.2 });
  const reply = encodeErrorReply('anthropic-messages', error, 'req_1');
  assert.equal(reply.status, 429);
  assert.deepEqual(reply.headers, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': 'req_1',
    'x-switchyard-error-code': 'upstream_rate_limited',
    'retry-after': '2',
  });
  assert.deepEqual(JSON.parse(reply.body), {
    type: 'error',
    error: { type: 'rate_limit_error', message: 'slow down (request id: req_1)' },
    request_id: 'req_1',
  });
  const openai = encodeErrorReply('openai-chat', new GatewayError('invalid_api_key', 'no key'), 'req_2');
  assert.equal(openai.status, 401);
  assert.equal(openai.headers['retry-after'], undefined);
  assert.equal(JSON.parse(openai.body).error.code, 'invalid_api_key');
});

test('an answer a retry cannot fix says x-should-retry: false in every protocol; 429 and 503 keep retry-after instead', () => {
  const protocols = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini-generate-content'] as const;
  const final = [
    new GatewayError('invalid_request', 'bad', { status: 400 }),
    new GatewayError('invalid_api_key', 'wrong key'),
    new GatewayError('key_expired', 'expired'),
    new GatewayError('model_not_found', 'no such model'),
    new GatewayError('body_too_large', 'too large'),
    new GatewayError('invalid_request', 'unprocessable', { status: 422 }),
  ];
  for (const protocol of protocols) {
    for (const error of final) {
      const reply = encodeErrorReply(protocol, error, 'req_x');
      assert.equal(reply.headers['x-should-retry'], 'false', `${protocol} ${reply.status}`);
    }
    for (const error of [
      new GatewayError('upstream_rate_limited', 'slow down', { status: 429, retryAfterSeconds: 3 }),
      new GatewayError('no_available_channel', 'busy', { retryAfterSeconds: 1 }),
    ]) {
      const reply = encodeErrorReply(protocol, error, 'req_y');
      assert.equal(reply.headers['x-should-retry'], undefined, `${protocol} ${reply.status}`);
      assert.ok(reply.headers['retry-after'], `${protocol} ${reply.status} keeps retry-after`);
    }
  }
});
