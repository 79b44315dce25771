import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDatabaseUnavailable } from './is-database-unavailable.ts';

test('connection-level failures mean the database, not a row, is at fault', () => {
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })), true);
  assert.equal(isDatabaseUnavailable(new Error('Connection terminated unexpectedly')), true);
  assert.equal(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect')), true);
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), true);
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })), true);
});

test('a deadlock or serialization failure between instances is retried whole, not blamed on a row', () => {
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('deadlock detected'), { code: '40P01' })), true);
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('could not serialize access'), { code: '40001' })), true);
});

test('a row the database refuses is not an outage', () => {
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('value out of range for type bigint'), { code: '22003' })), false);
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })), false);
  assert.equal(isDatabaseUnavailable(new RangeError('Infinity cannot be bound')), false);
  assert.equal(isDatabaseUnavailable('not an error'), false);
});
