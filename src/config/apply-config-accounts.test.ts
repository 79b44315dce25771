import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createStore } from '../store/create-store.ts';
import type { Store } from '../store/store.ts';
import { applyConfig } from './apply-config-file.ts';
import { parseConfigFile } from './read-config-file.ts';

const FILE = `
groups:
  - name: pro
    billing: subscription
users:
  - name: ada
    email: ada@example.com
    password: a long secret
    balance: 10
plans:
  - name: pro-monthly
    group: pro
    durationDays: 30
    quota: { daily: 1, monthly: 20 }
    price: 15
subscriptions:
  - user: ada
    plan: pro-monthly
keys:
  - name: ada-laptop
    group: pro
    user: ada
    key: sk-ada-0123456789abcdefghij
`;

describe('config file: users, plans and subscriptions', () => {
  let store: Store;
  before(async () => {
    store = await createStore({ databaseUrl: 'sqlite::memory:', secretKey: Buffer.alloc(32, 7) });
  });
  after(() => store.close());

  test('applied once, then unchanged at every boot (idempotent)', async () => {
    const first = await applyConfig(store, parseConfigFile(FILE, {}));
    assert.deepEqual(first.users, { created: ['ada'], updated: [], unchanged: [] });
    assert.deepEqual(first.plans, { created: ['pro-monthly'], updated: [], unchanged: [] });
    assert.deepEqual(first.subscriptions, { created: ['ada/pro-monthly'], updated: [], unchanged: [] });
    const ada = await store.users.find('ada');
    assert.equal(ada?.balanceMicros, 10_000_000);
    assert.match(ada?.passwordHash ?? '', /^scrypt\$/);
    assert.equal((await store.groups.get('pro'))?.billing, 'subscription');
    const key = (await store.keys.list()).find((entry) => entry.name === 'ada-laptop');
    assert.equal(key?.userId, ada?.id);

    // The wallet is spent meanwhile; a second boot with the same file leaves it (and the hash) alone.
    await store.users.applyCharges([{ keyId: ada?.id as string, amountMicros: 1_000_000 }]);
    const second = await applyConfig(store, parseConfigFile(FILE, {}));
    assert.deepEqual(second.users, { created: [], updated: [], unchanged: ['ada'] });
    assert.deepEqual(second.plans, { created: [], updated: [], unchanged: ['pro-monthly'] });
    assert.deepEqual(second.subscriptions, { created: [], updated: [], unchanged: ['ada/pro-monthly'] });
    assert.deepEqual(second.keys.unchanged, ['ada-laptop']);
    const after = await store.users.find('ada');
    assert.equal(after?.balanceMicros, 9_000_000);
    assert.equal(after?.passwordHash, ada?.passwordHash);
    assert.equal((await store.subscriptions.list()).length, 1);

    // A changed wallet value in the file is applied.
    const third = await applyConfig(store, parseConfigFile(FILE.replace('balance: 10', 'balance: 12'), {}));
    assert.deepEqual(third.users?.updated, ['ada']);
    assert.equal((await store.users.find('ada'))?.balanceMicros, 12_000_000);
  });
});
