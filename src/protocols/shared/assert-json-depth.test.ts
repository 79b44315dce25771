import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../core/gateway-error.ts';
import { assertJsonDepth } from './assert-json-depth.ts';

const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth - 1)}[1]${'}'.repeat(depth - 1)}`);

test('bodies up to the limit pass, one level more is an invalid request', () => {
  assert.doesNotThrow(() => assertJsonDepth(nested(10), 10));
  assert.throws(
    () => assertJsonDepth(nested(11), 10),
    (error) => error instanceof GatewayError && error.code === 'invalid_request' && error.status === 400,
  );
});

test('a body far deeper than any stack survives the check itself', () => {
  const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
  assert.throws(() => assertJsonDepth(deep), GatewayError);
});

test('scalars and wide but shallow bodies pass', () => {
  for (const value of [null, 1, 'text', true, undefined]) assertJsonDepth(value);
  assertJsonDepth({ messages: Array.from({ length: 10_000 }, (_, index) => ({ role: 'user', content: [{ type: 'text', text: String(index) }] })) });
});
