import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CircuitBreaker } from '../../../src/relay/routing/circuit-breaker.ts';

const options = { windowMs: 10_000, minimumRequests: 4, errorRateThreshold: 0.5, cooldownMs: 1_000, maxCooldownMs: 8_000 };

describe('CircuitBreaker', () => {
  test('one error never opens it; an error rate over the window does', () => {
    const circuit = new CircuitBreaker(options);
    circuit.recordFailure(0, 'boom');
    assert.equal(circuit.state, 'closed');
    circuit.recordSuccess(1);
    circuit.recordFailure(2, 'boom');
    assert.equal(circuit.state, 'closed', 'three outcomes are below the minimum');
    circuit.recordFailure(3, 'boom');
    assert.equal(circuit.state, 'open');
    assert.match(circuit.reason ?? '', /75% of 4 recent requests failed; last: boom/);
  });

  test('old outcomes leave the window', () => {
    const circuit = new CircuitBreaker(options);
    for (let index = 0; index < 3; index += 1) circuit.recordFailure(index, 'old');
    for (let index = 0; index < 3; index += 1) circuit.recordSuccess(20_000 + index);
    circuit.recordFailure(20_010, 'new');
    assert.equal(circuit.state, 'closed', 'only 1 of 4 recent outcomes failed');
  });

  test('half-open admits one probe after the cool-down; success closes, failure doubles the cool-down', () => {
    const circuit = new CircuitBreaker(options);
    circuit.trip(0, 'bad credentials');
    assert.equal(circuit.tryAcquire(500), false);
    assert.equal(circuit.tryAcquire(8_000), true);
    assert.equal(circuit.state, 'half-open');
    assert.equal(circuit.tryAcquire(8_001), false, 'only one probe at a time');
    circuit.recordFailure(8_002, 'still bad');
    assert.equal(circuit.state, 'open');
    assert.equal(circuit.retryAt, 8_002 + 8_000, 'cool-down doubled up to the ceiling');
    assert.equal(circuit.tryAcquire(16_002), true);
    circuit.recordSuccess(16_003);
    assert.equal(circuit.state, 'closed');
    assert.equal(circuit.reason, undefined);
  });

  test('a pause (retry-after) skips the circuit without counting a failure', () => {
    const circuit = new CircuitBreaker(options);
    circuit.pauseUntil(0, 2_000, 'upstream asked to wait 2 s');
    assert.equal(circuit.tryAcquire(1_000), false);
    assert.equal(circuit.tryAcquire(2_000), true);
    circuit.recordSuccess(2_001);
    assert.equal(circuit.state, 'closed');
    assert.equal(circuit.successRate(2_002), 1);
  });
});
