import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChannelHealth, type CircuitTransition } from '../../src/relay/routing/channel-health.ts';
import { DEFAULT_CIRCUIT_OPTIONS } from '../../src/relay/routing/circuit-breaker.ts';
import type { Channel } from '../../src/domain/channel.ts';

const channel = { id: 'ch_1', name: 'one', apiKeys: ['sk-a'], enabled: true } as unknown as Channel;

/** Two instances' health, wired as the event bus wires them: each publishes, the other mirrors. */
function pair() {
  let time = 1_000_000;
  const now = () => time;
  const a = new ChannelHealth(now, DEFAULT_CIRCUIT_OPTIONS);
  const b = new ChannelHealth(now, DEFAULT_CIRCUIT_OPTIONS);
  const published: CircuitTransition[] = [];
  a.onTransition = (transition) => {
    published.push(transition);
    b.applyRemote(transition);
  };
  b.onTransition = (transition) => {
    published.push(transition);
    a.applyRemote(transition);
  };
  return { a, b, published, advance: (ms: number) => (time += ms), now };
}

test('a circuit opened by errors on A is skipped on B until its cool-down ends; a probe that succeeds on B closes it on A', () => {
  const { a, b, published, advance, now } = pair();
  for (let index = 0; index < 5; index += 1) {
    const lease = a.acquire(channel);
    assert.ok(lease);
    a.recordFailure(channel, lease, { at: now(), status: 500, code: 'upstream_error', message: 'kaput' });
  }
  assert.equal(published.length, 1, 'one transition, not one message per request');
  assert.equal(published[0]?.state, 'open');
  assert.equal(b.acquire(channel), undefined);
  assert.equal(b.describe(channel).state, 'open');
  assert.match(b.describe(channel).reason ?? '', /kaput/);

  advance(DEFAULT_CIRCUIT_OPTIONS.cooldownMs);
  const probe = b.acquire(channel);
  assert.ok(probe, 'after the cool-down B may probe');
  b.recordSuccess(channel, probe, 20);
  assert.equal(published.at(-1)?.state, 'closed');
  assert.equal(a.describe(channel).state, 'closed');
  assert.ok(a.acquire(channel));
});

test('successes on a closed circuit publish nothing, and a broken key trips the channel everywhere at once', () => {
  const { a, b, published, now } = pair();
  for (let index = 0; index < 20; index += 1) {
    const lease = a.acquire(channel);
    assert.ok(lease);
    a.recordSuccess(channel, lease, 10);
  }
  assert.equal(published.length, 0);
  const lease = a.acquire(channel);
  assert.ok(lease);
  a.recordBroken(channel, lease, { at: now(), status: 401, code: 'authentication_error', message: 'bad key' });
  assert.equal(b.describe(channel).state, 'open');
  assert.equal(b.acquire(channel), undefined);
});
