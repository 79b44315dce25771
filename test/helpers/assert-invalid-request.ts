import assert from 'node:assert/strict';
import { GatewayError } from '../../src/core/gateway-error.ts';

/** `run` must throw the 400 `invalid_request` a client sees, naming `param`, its message matching `pattern`. */
export function assertInvalidRequest(run: () => unknown, param: string | undefined, pattern: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    assert.equal(error.code, 'invalid_request');
    assert.equal(error.status, 400);
    assert.equal(error.param, param);
    assert.match(error.message, pattern);
    return true;
  });
}
