import assert from 'node:assert/strict';
import { StoreConflictError } from '../../../src/store/store.ts';

/** Asserts the promise rejects with StoreConflictError on `field` whose message matches. */
export async function assertConflict(promise: Promise<unknown>, field: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof StoreConflictError, `expected StoreConflictError, got ${String(error)}`);
    assert.equal(error.field, field);
    if (message) assert.match(error.message, message);
    return true;
  });
}
