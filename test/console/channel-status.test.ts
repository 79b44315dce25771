import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelStatus, successHeader, successText } from '../../console/src/lib/channel-status.ts';
import type { Channel } from '../../console/src/lib/types.ts';

const NOW = 1_800_000_000_000;

function channel(health: Partial<NonNullable<Channel['health']>> | null, enabled = true): Channel {
  return {
    id: 'ch_1',
    name: 'sim',
    enabled,
    ...(health === null
      ? {}
      : {
          health: {
            state: 'closed',
            reason: null,
            openedAt: null,
            retryAt: null,
            successRate: null,
            successWindowMs: 60_000,
            latencyP50: null,
            latencyP95: null,
            requests: 0,
            lastError: null,
            lastSuccessAt: null,
            keys: [],
            models: [],
            status: 'untested',
            statusReason: 'no request, probe or test has gone through it yet',
            ...health,
          },
        }),
  } as Channel;
}

test('the success column names its rolling window, and says why a cell is empty', () => {
  assert.equal(successHeader([channel({})]), 'Success (last 1 min)');
  assert.equal(successHeader([channel({ successWindowMs: 300_000 })]), 'Success (last 5 min)');
  assert.equal(successHeader([channel(null)]), 'Success', 'an older gateway without health: no window to name');
  assert.deepEqual(successText(channel({ successRate: 0.5 }), NOW), { value: '50.0 %', note: null });
  assert.deepEqual(successText(channel({ lastSuccessAt: NOW - 5 * 60_000, status: 'healthy' }), NOW), {
    value: '—',
    note: 'no calls in the last 1 min; last success 5 min ago',
  });
  assert.deepEqual(successText(channel({}), NOW), { value: '—', note: 'no calls in the last 1 min' });
});

test('a test run from the row is a call: an "untested" health shows the test’s outcome', () => {
  const untested = channel({});
  assert.equal(channelStatus(untested).label, 'untested');
  const failed = channelStatus(untested, { ok: false, text: 'Test failed · status 404' });
  assert.deepEqual([failed.label, failed.tone], ['failing', 'down']);
  assert.doesNotMatch(failed.reason ?? '', /no request, probe or test/);
  assert.equal(channelStatus(untested, { ok: true, text: 'Test passed' }).label, 'healthy');
  // The gateway's own word wins once it has one; a disabled channel stays disabled.
  assert.equal(channelStatus(channel({ status: 'circuit open', state: 'open' }), { ok: true, text: '' }).label, 'circuit open');
  assert.equal(channelStatus(channel({ status: 'disabled' }, false), { ok: false, text: '' }).label, 'disabled');
});
