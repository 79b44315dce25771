import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildModelMatrix, cellKey } from '../../console/src/lib/model-matrix.ts';
import type { Channel, ChannelHealth } from '../../console/src/lib/types.ts';
import { toNewChannel } from '../../src/domain/new-channel.ts';
import { channelView } from '../../src/server/admin/admin-views.ts';

const health = (models: ChannelHealth['models']): ChannelHealth => ({
  state: 'closed',
  reason: null,
  openedAt: null,
  retryAt: null,
  successRate: 0.5,
  successWindowMs: 60_000,
  latencyP50: null,
  latencyP95: null,
  requests: 10,
  lastError: null,
  lastSuccessAt: null,
  keys: [],
  models,
  status: 'degraded',
  statusReason: null,
});

/** A channel as the admin API lists it, built the way the API builds it (defaults and view). */
const channel = (name: string, models: ChannelHealth['models']): Channel =>
  channelView(
    {
      id: name,
      ...toNewChannel({ name, provider: 'openai', baseUrl: 'http://upstream/v1', apiKey: 'sk-upstream-0123456789', models: ['a', 'b'] }),
      createdAt: 0,
      updatedAt: 0,
    },
    health(models),
  );

test('the matrix counts a channel out for a model whose own circuit is open (issue 24: a 404 for that model), not for its others', () => {
  const matrix = buildModelMatrix([], [channel('wrong', [{ model: 'a', state: 'open', reason: '404', retryAt: null }]), channel('right', [])], []);
  const a = matrix.cells.get(cellKey('default', 'a'))!;
  assert.deepEqual([a.usable, a.total], [1, 2]);
  assert.deepEqual(
    a.channels.find((entry) => entry.name === 'wrong'),
    { id: 'wrong', name: 'wrong', usable: false, label: 'model out' },
  );
  assert.deepEqual([matrix.cells.get(cellKey('default', 'b'))!.usable, matrix.cells.get(cellKey('default', 'b'))!.total], [2, 2]);
});
