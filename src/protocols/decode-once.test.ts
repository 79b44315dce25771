import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invalidRequest } from '../core/gateway-error.ts';
import { getCodec } from './codec-registry.ts';
import type { ProtocolCodec } from './protocol-codec.ts';
import { createFixedRuntime } from '../../test/helpers/fixed-runtime.ts';
import { decodeOnce } from './decode-once.ts';

function countingCodec(): { codec: ProtocolCodec; calls: () => number } {
  const real = getCodec('openai-chat');
  let calls = 0;
  return {
    codec: {
      ...real,
      decodeRequest(input, context) {
        calls += 1;
        return real.decodeRequest(input, context);
      },
    },
    calls: () => calls,
  };
}

test('the request is decoded on first need only, and every caller shares the value', () => {
  const { codec, calls } = countingCodec();
  const decode = decodeOnce(codec, { body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] } }, createFixedRuntime());
  assert.equal(calls(), 0);
  const first = decode();
  assert.equal(decode(), first);
  assert.equal(calls(), 1);
  assert.equal(first.request.model, 'm');
});

test('a body that cannot be decoded throws the same error to every caller, decoding once', () => {
  const { codec, calls } = countingCodec();
  const decode = decodeOnce(codec, { body: { model: 'm', messages: 'nope' } }, createFixedRuntime());
  let thrown: unknown;
  assert.throws(
    () => decode(),
    (error: unknown) => {
      thrown = error;
      return true;
    },
  );
  assert.throws(
    () => decode(),
    (error: unknown) => error === thrown,
  );
  assert.equal(calls(), 1);
  assert.equal((thrown as ReturnType<typeof invalidRequest>).code, 'invalid_request');
});
