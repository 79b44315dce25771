import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { BalanceMeter } from '../../src/billing/balance-meter.ts';
import { ChargeWriter } from '../../src/billing/charge-writer.ts';
import { spendWindows } from '../../src/billing/spend-windows.ts';
import { isGatewayError } from '../../src/core/gateway-error.ts';
import { createMemoryKv } from '../../src/kv/create-memory-kv.ts';
import type { ApiKey } from '../../src/domain/api-key.ts';

const NOW = Date.UTC(2024, 4, 8, 15, 30); // Wednesday 2024-05-08

function setup(key: ApiKey, baseline = 0) {
  const applied: Array<{ keyId: string; amountMicros: number }> = [];
  const charges = new ChargeWriter({ applyCharges: async (batch) => void applied.push(...batch) }, pino({ level: 'silent' }), 60_000);
  const meter = new BalanceMeter({
    kv: createMemoryKv({ now: () => NOW }),
    charges,
    spendBaseline: () => baseline,
    now: () => NOW,
  });
  return { meter, charges, applied };
}

function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_1',
    name: 'k',
    group: 'default',
    keyHash: 'h',
    keyHint: '',
    expiresAt: null,
    balanceMicros: 1_000,
    spentMicros: 0,
    allowedModels: null,
    allowedIps: null,
    enabled: true,
    limits: {},
    createdAt: 0,
    updatedAt: 1,
    ...overrides,
  };
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'admitted';
  } catch (error) {
    assert.ok(isGatewayError(error));
    return error.code;
  }
}

describe('balance meter', () => {
  test('reserve, settle below and above the hold, refund: the balance is exact', async () => {
    const key = apiKey();
    const { meter, charges, applied } = setup(key);
    const a = await meter.hold(key, 400, 'm');
    const b = await meter.hold(key, 400, 'm');
    assert.equal(await code(meter.hold(key, 400, 'm')), 'insufficient_balance');
    await a.settle(250);
    await b.settle(0);
    assert.equal(await meter.available(key), 750);
    const c = await meter.hold(key, 700, 'm');
    await c.settle(760); // longer answer than reserved: the balance dips below zero once
    assert.equal(await meter.available(key), -10);
    assert.equal(await code(meter.hold(key, 0, 'm')), 'insufficient_balance');
    await charges.flush();
    assert.deepEqual(applied, [{ keyId: 'key_1', amountMicros: 1_010 }]);
  });

  test('a top-up or a rename while holds are in flight is a delta on the one account: the holds are never forgotten', async () => {
    const key = apiKey({ balanceMicros: 500 });
    const { meter } = setup(key);
    const first = await meter.hold(key, 300, 'm');
    const second = await meter.hold(key, 200, 'm');
    // The operator adds 10 (a new version of the record; spent unchanged): 10 is free, not 510.
    const topped = apiKey({ balanceMicros: 510, updatedAt: 2 });
    assert.equal(await meter.available(topped), 10);
    assert.equal(await code(meter.hold(topped, 11, 'm')), 'insufficient_balance');
    // Renamed four times: no money moves.
    let renamed = topped;
    for (let version = 3; version <= 6; version += 1) {
      renamed = { ...renamed, name: `k${version}`, updatedAt: version };
      assert.equal(await meter.available(renamed), 10);
    }
    const third = await meter.hold(renamed, 10, 'm');
    assert.equal(await code(meter.hold(renamed, 1, 'm')), 'insufficient_balance');
    await Promise.all([first.settle(300), second.settle(150), third.settle(10)]);
    // 510 funded, 460 charged (not yet written to the store).
    assert.equal(await meter.available(renamed), 50);
  });

  test('spend caps: daily, weekly and monthly windows from the baseline, with reset times', async () => {
    const key = apiKey({ balanceMicros: null, limits: { dailySpendMicros: 1_000, monthlySpendMicros: 5_000 } });
    const { meter } = setup(key, 900);
    const hold = await meter.hold(key, 100, 'm');
    await hold.settle(100);
    assert.equal(await code(meter.hold(key, 1, 'm')), 'spend_limit_reached');
    const windows = await meter.windowSpend(key);
    assert.deepEqual(
      windows.map((window) => [window.period, window.spentMicros, new Date(window.end).toISOString()]),
      [
        ['daily', 1_000, '2024-05-09T00:00:00.000Z'],
        ['monthly', 1_000, '2024-06-01T00:00:00.000Z'],
      ],
    );
  });

  test('window boundaries are UTC days, Monday weeks and calendar months', () => {
    const windows = spendWindows({ dailySpendMicros: 1, weeklySpendMicros: 1, monthlySpendMicros: 1 }, NOW);
    assert.deepEqual(
      windows.map((window) => [window.id, new Date(window.start).toISOString(), new Date(window.end).toISOString()]),
      [
        ['2024-05-08', '2024-05-08T00:00:00.000Z', '2024-05-09T00:00:00.000Z'],
        ['w2024-05-06', '2024-05-06T00:00:00.000Z', '2024-05-13T00:00:00.000Z'],
        ['2024-05', '2024-05-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z'],
      ],
    );
  });

  test('unlimited keys are never refused and still record what they spend', async () => {
    const key = apiKey({ balanceMicros: null });
    const { meter, charges, applied } = setup(key);
    const hold = await meter.hold(key, 10_000_000, 'm');
    await hold.settle(42);
    await charges.flush();
    assert.deepEqual(applied, [{ keyId: 'key_1', amountMicros: 42 }]);
    assert.equal(await meter.available(key), null);
  });
});
