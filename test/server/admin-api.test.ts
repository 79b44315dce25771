import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Removes generated fields after checking their form, so the rest can be compared exactly. */
function withoutGenerated<T extends Record<string, unknown>>(record: T, idPrefix?: string) {
  const { id, createdAt, updatedAt, ...rest } = record;
  if (idPrefix !== undefined) assert.match(String(id), new RegExp(`^${idPrefix}[A-Za-z0-9]+$`));
  assert.equal(typeof createdAt, 'number');
  if (updatedAt !== undefined) assert.equal(typeof updatedAt, 'number');
  return rest;
}

describe('admin API: groups', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test('lists the default group from the first boot', async () => {
    const { data } = await harness.admin('GET', '/groups');
    assert.deepEqual(
      data.map((group: Record<string, unknown>) => withoutGenerated(group)),
      [{ name: 'default', description: 'The group new keys join unless told otherwise.', priceMultiplier: 1, billing: 'balance', allowedFeatures: [] }],
    );
  });

  test('creates, updates, lists and deletes a group', async () => {
    const created = await harness.admin('POST', '/groups', { name: 'premium', description: 'Paying users' }, 201);
    assert.deepEqual(withoutGenerated(created), { name: 'premium', description: 'Paying users', priceMultiplier: 1, billing: 'balance', allowedFeatures: [] });

    const patched = await harness.admin('PATCH', '/groups/premium', { priceMultiplier: 0.8 }, 200);
    assert.deepEqual(withoutGenerated(patched), {
      name: 'premium',
      description: 'Paying users',
      priceMultiplier: 0.8,
      billing: 'balance',
      allowedFeatures: [],
    });

    const { data } = await harness.admin('GET', '/groups');
    assert.deepEqual(data.map((group: { name: string }) => group.name).sort(), ['default', 'premium']);

    assert.equal(await harness.admin('DELETE', '/groups/premium', undefined, 204), undefined);
    const after = await harness.admin('GET', '/groups');
    assert.deepEqual(
      after.data.map((group: { name: string }) => group.name),
      ['default'],
    );
  });

  test('renames a group with PATCH {name}: its keys, channels, plans and the accounts default group follow, and requests still flow', async () => {
    await harness.admin('POST', '/groups', { name: 'old-name', billing: 'subscription_then_balance', description: 'kept' }, 201);
    const channel = await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], groups: ['old-name'] });
    const key = await harness.addKey({ group: 'old-name' });
    await harness.admin('POST', '/plans', { name: 'renamed-plan', group: 'old-name', durationDays: 30, quota: { monthly: 5 } }, 201);
    await harness.admin('PATCH', '/account-settings', { defaultGroup: 'old-name' }, 200);

    const renamed = await harness.admin('PATCH', '/groups/old-name', { name: 'new-name', priceMultiplier: 2 }, 200);
    assert.deepEqual(withoutGenerated(renamed), {
      name: 'new-name',
      description: 'kept',
      priceMultiplier: 2,
      billing: 'subscription_then_balance',
      allowedFeatures: [],
    });
    const names = (await harness.admin('GET', '/groups')).data.map((group: { name: string }) => group.name);
    assert.ok(names.includes('new-name') && !names.includes('old-name'), names.join(', '));
    assert.deepEqual((await harness.admin('GET', `/channels/${channel.id}`)).groups, ['new-name']);
    assert.equal((await harness.admin('GET', `/keys/${key.id}`)).group, 'new-name');
    assert.equal((await harness.admin('GET', '/plans/renamed-plan')).group, 'new-name');
    assert.equal((await harness.admin('GET', '/account-settings')).defaultGroup, 'new-name');
    await harness.admin('PATCH', '/groups/old-name', { description: 'x' }, 404);

    // The key still reaches its channel under the group's new name (balance billing: the key has no user to subscribe).
    await harness.admin('PATCH', '/groups/new-name', { billing: 'balance' }, 200);
    const reply = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
    });
    assert.equal(reply.status, 200, await reply.text());
  });

  test('refuses to rename the default group or to take a name in use', async () => {
    const refused = await harness.admin('PATCH', '/groups/default', { name: 'standard' }, 409);
    assert.match(refused.error.message, /"default" group cannot be renamed/);
    await harness.admin('POST', '/groups', { name: 'first' }, 201);
    await harness.admin('POST', '/groups', { name: 'second' }, 201);
    const taken = await harness.admin('PATCH', '/groups/first', { name: 'second' }, 409);
    assert.equal(taken.error.param, 'name');
    assert.match(taken.error.message, /a group named "second" already exists/);
    const bad = await harness.admin('PATCH', '/groups/first', { name: 'two words' }, 400);
    assert.equal(bad.error.param, 'name');
    const names = (await harness.admin('GET', '/groups')).data.map((group: { name: string }) => group.name);
    assert.ok(names.includes('first') && names.includes('second'));
  });

  test('refuses to delete the default group or a group still in use', async () => {
    const refused = await harness.admin('DELETE', '/groups/default', undefined, 409);
    assert.equal(refused.error.code, 'conflict');
    assert.match(refused.error.message, /"default" group cannot be deleted/);

    await harness.admin('POST', '/groups', { name: 'busy' }, 201);
    const key = await harness.addKey({ group: 'busy' });
    const inUse = await harness.admin('DELETE', '/groups/busy', undefined, 409);
    assert.match(inUse.error.message, /group "busy" is still used by 1 key/);
    assert.ok((await harness.admin('GET', '/groups')).data.some((group: { name: string }) => group.name === 'busy'));

    await harness.admin('DELETE', `/keys/${key.id}`, undefined, 204);
    await harness.admin('DELETE', '/groups/busy', undefined, 204);
  });
});

describe('admin API: channels', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
    await harness.admin('POST', '/groups', { name: 'premium' }, 201);
  });
  after(() => harness.close());

  test('creates a channel with defaults filled in and the secret masked', async () => {
    const created = await harness.admin(
      'POST',
      '/channels',
      {
        name: 'openai-main',
        provider: 'openai',
        baseUrl: 'https://api.example.com/v1',
        apiKey: 'sk-live-0123456789abcdefghij',
        models: ['gpt-4o', 'gpt-4o-mini'],
        groups: ['default', 'premium'],
      },
      201,
    );
    assert.deepEqual(withoutGenerated(created, 'ch_'), {
      name: 'openai-main',
      provider: 'openai',
      baseUrl: 'https://api.example.com/v1',
      models: ['gpt-4o', 'gpt-4o-mini'],
      groups: ['default', 'premium'],
      modelMap: {},
      priority: 0,
      weight: 1,
      enabled: true,
      supportsResponses: false,
      allowedPrefixes: [],
      apiKeys: ['sk-l…ghij'],
      apiKeyCount: 1,
    });
    assert.equal(created.createdAt, created.updatedAt);
  });

  test('keeps every optional field given at creation', async () => {
    const created = await harness.admin(
      'POST',
      '/channels',
      {
        name: 'anthropic-main',
        provider: 'anthropic',
        baseUrl: 'https://api.anthropic.example',
        apiKeys: ['sk-ant-first-0123456789', 'sk-ant-second-0123456789'],
        models: ['claude-sonnet'],
        groups: ['premium'],
        modelMap: { 'claude-sonnet': 'claude-sonnet-4-5' },
        priority: 5,
        weight: 3,
        enabled: false,
        allowedPrefixes: ['antigravity'],
      },
      201,
    );
    assert.deepEqual(withoutGenerated(created, 'ch_'), {
      name: 'anthropic-main',
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.example',
      models: ['claude-sonnet'],
      groups: ['premium'],
      modelMap: { 'claude-sonnet': 'claude-sonnet-4-5' },
      priority: 5,
      weight: 3,
      enabled: false,
      supportsResponses: false,
      allowedPrefixes: ['antigravity'],
      apiKeys: ['sk-a…6789', 'sk-a…6789'],
      apiKeyCount: 2,
    });
  });

  test('gets, lists, patches and deletes a channel', async () => {
    const created = await harness.addChannel({ provider: 'gemini', models: ['gemini-2.5-flash'] });
    // Reads add the channel's live health to what was stored.
    const { health, ...fetched } = await harness.admin('GET', `/channels/${created.id}`);
    assert.deepEqual(fetched, created);
    assert.equal(health.state, 'closed');
    assert.equal(health.requests, 0);
    const { data } = await harness.admin('GET', '/channels');
    assert.deepEqual(
      data.find((channel: { id: string }) => channel.id === created.id),
      { ...created, health },
    );

    const patched = await harness.admin('PATCH', `/channels/${created.id}`, { priority: 7, models: ['gemini-2.5-pro'], groups: ['premium'] }, 200);
    assert.deepEqual({ ...patched, updatedAt: undefined }, { ...created, priority: 7, models: ['gemini-2.5-pro'], groups: ['premium'], updatedAt: undefined });
    assert.ok(patched.updatedAt >= created.updatedAt);
    assert.deepEqual({ ...(await harness.admin('GET', `/channels/${created.id}`)), health: undefined }, { ...patched, health: undefined });

    const rotated = await harness.admin('PATCH', `/channels/${created.id}`, { apiKey: 'sk-rotated-secret-abcdefgh' }, 200);
    assert.deepEqual(rotated.apiKeys, ['sk-r…efgh']);

    await harness.admin('DELETE', `/channels/${created.id}`, undefined, 204);
    await harness.admin('GET', `/channels/${created.id}`, undefined, 404);
    await harness.admin('POST', `/channels/${created.id}/test`, {}, 404);
    const afterDelete = await harness.admin('GET', '/channels');
    assert.ok(!afterDelete.data.some((channel: { id: string }) => channel.id === created.id));
  });
});

describe('admin API: channel test', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test('probes a channel with one small request and reports the outcome', async () => {
    const channel = await harness.addChannel({ provider: 'openai', models: ['probe-a', 'probe-b'] });
    const ok = await harness.admin('POST', `/channels/${channel.id}/test`, { model: 'probe-b' }, 200);
    assert.deepEqual({ ...ok, latencyMs: typeof ok.latencyMs }, { ok: true, model: 'probe-b', status: 200, latencyMs: 'number', error: null });
    assert.equal((harness.simulator.lastRequest()?.body as { model: string }).model, 'probe-b');

    harness.simulator.enqueue({ fault: { type: 'status', status: 500 } });
    const failed = await harness.admin('POST', `/channels/${channel.id}/test`, {}, 200);
    assert.equal(failed.ok, false);
    assert.equal(failed.model, 'probe-a');
    assert.equal(failed.status, 500);
    assert.equal(failed.error.code, 'upstream_error');

    const wrongModel = await harness.admin('POST', `/channels/${channel.id}/test`, { model: 'other' }, 400);
    assert.equal(wrongModel.error.param, 'model');
  });
});

describe('admin API: keys', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test('creates a key: defaults, the secret once, and no hash', async () => {
    const created = await harness.admin('POST', '/keys', { name: 'alice', group: 'default' }, 201);
    const { key, keyHint, ...rest } = withoutGenerated(created, 'key_');
    assert.match(key, /^sk-[A-Za-z0-9]{40,}$/);
    assert.equal(keyHint, `${key.slice(0, 7)}…${key.slice(-4)}`);
    assert.deepEqual(rest, {
      name: 'alice',
      group: 'default',
      allowedModels: null,
      allowedIps: null,
      enabled: true,
      expiresAt: null,
      balance: null,
      spent: 0,
      limits: {},
      user: null,
      owner: null,
      paysFrom: 'unlimited',
      available: null,
    });
  });

  test('keeps expiry, quota, allowed models and IPs, limits; get and list never show the secret', async () => {
    const created = await harness.admin(
      'POST',
      '/keys',
      {
        name: 'bob',
        group: 'default',
        expiresAt: '2030-01-01T00:00:00Z',
        quota: 12.5,
        allowedModels: ['gpt-4o-mini'],
        allowedIps: ['10.0.0.0/8', '2001:db8::/32'],
        limits: { requestsPerMinute: 60, dailySpend: 2 },
      },
      201,
    );
    const { key, ...view } = created;
    assert.match(key, /^sk-/);
    assert.deepEqual(
      { ...withoutGenerated(view, 'key_'), keyHint: undefined },
      {
        name: 'bob',
        group: 'default',
        keyHint: undefined,
        allowedModels: ['gpt-4o-mini'],
        allowedIps: ['10.0.0.0/8', '2001:db8::/32'],
        enabled: true,
        expiresAt: '2030-01-01T00:00:00.000Z',
        balance: 12.5,
        spent: 0,
        limits: { requestsPerMinute: 60, dailySpend: 2 },
        user: null,
        owner: null,
        paysFrom: 'key_balance',
        available: 12.5,
      },
    );

    const fetched = await harness.admin('GET', `/keys/${created.id}`);
    assert.deepEqual(fetched, view);
    const { data } = await harness.admin('GET', '/keys');
    assert.deepEqual(
      data.find((entry: { id: string }) => entry.id === created.id),
      view,
    );
    for (const entry of [fetched, ...data]) {
      assert.equal(entry.key, undefined);
      assert.equal(entry.keyHash, undefined);
    }
    assert.ok(!JSON.stringify(data).includes(key), 'a listed key revealed its secret');
  });

  test('patches and deletes a key', async () => {
    const { id } = await harness.addKey();
    const patched = await harness.admin('PATCH', `/keys/${id}`, { enabled: false, balance: 3, expiresAt: null, allowedModels: ['m'] }, 200);
    assert.equal(patched.enabled, false);
    assert.equal(patched.balance, 3);
    assert.equal(patched.expiresAt, null);
    assert.deepEqual(patched.allowedModels, ['m']);
    assert.deepEqual(await harness.admin('GET', `/keys/${id}`), patched);

    await harness.admin('DELETE', `/keys/${id}`, undefined, 204);
    await harness.admin('GET', `/keys/${id}`, undefined, 404);
  });
});

describe('admin API: prices and logs', () => {
  let harness: Harness;
  let key: { id: string; key: string };
  before(async () => {
    harness = await startHarness();
    await harness.addChannel({ provider: 'openai', models: ['m-one', 'm-two'] });
    key = await harness.addKey({ name: 'logger' });
  });
  after(() => harness.close());

  test('sets, replaces, lists and deletes a price (USD per million tokens)', async () => {
    const created = await harness.admin('POST', '/prices', { model: 'm-one', input: 2.5, output: 10, cacheRead: 1.25 }, 201);
    const { updatedAt, version, ...rest } = created;
    assert.match(updatedAt, ISO);
    assert.match(version, /^pv_/, 'every price names the version it was set as');
    assert.deepEqual(rest, { model: 'm-one', input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: null });

    const replaced = await harness.admin('POST', '/prices', { model: 'm-one', input: 3, output: 12 }, 201);
    assert.notEqual(replaced.version, version, 'a change is a new version');
    assert.deepEqual(
      { ...replaced, updatedAt: undefined, version: undefined },
      { model: 'm-one', input: 3, output: 12, cacheRead: null, cacheWrite: null, updatedAt: undefined, version: undefined },
    );
    const { data } = await harness.admin('GET', '/prices');
    assert.deepEqual(data, [replaced]);

    await harness.admin('DELETE', '/prices/m-one', undefined, 204);
    assert.deepEqual((await harness.admin('GET', '/prices')).data, []);
    const missing = await harness.admin('DELETE', '/prices/m-one', undefined, 404);
    assert.equal(missing.error.code, 'not_found');
  });

  test('logs every request newest first, filtered by model, key and status, limited', async () => {
    const call = (model: string) =>
      fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      }).then((response) => response.status);
    harness.simulator.enqueue({ text: 'one', usage: { input: 11, output: 1 } });
    assert.equal(await call('m-one'), 200);
    harness.simulator.enqueue({ text: 'two', usage: { input: 12, output: 1 } });
    assert.equal(await call('m-two'), 200);
    assert.equal(await call('not-served'), 404);

    const { data } = await harness.admin('GET', '/logs');
    assert.deepEqual(
      data.map((entry: { model: string }) => entry.model),
      ['not-served', 'm-two', 'm-one'],
    );
    const newest200 = data[1];
    assert.match(newest200.requestId, /^req_/);
    assert.match(newest200.time, ISO);
    assert.equal(newest200.keyId, key.id);
    assert.equal(newest200.keyName, 'logger');
    assert.equal(newest200.group, 'default');
    assert.equal(newest200.channelName, 'channel-1');
    assert.equal(newest200.status, 200);
    assert.equal(newest200.inputTokens, 12);
    assert.equal(newest200.outputTokens, 1);
    assert.equal(newest200.stream, false);
    assert.equal(typeof newest200.latencyMs, 'number');

    assert.deepEqual(
      (await harness.admin('GET', '/logs?model=m-one')).data.map((entry: { inputTokens: number }) => entry.inputTokens),
      [11],
    );
    assert.equal((await harness.admin('GET', '/logs?limit=1')).data.length, 1);
    assert.deepEqual(
      (await harness.admin('GET', '/logs?status=404')).data.map((entry: { model: string }) => entry.model),
      ['not-served'],
    );
    assert.equal((await harness.admin('GET', `/logs?key=${key.id}`)).data.length, 3);
    assert.deepEqual((await harness.admin('GET', '/logs?key=key_nobody')).data, []);

    // The same rows as streamed CSV, with the same filters.
    const exported = await fetch(`${harness.url}/api/admin/logs/export?model=m-one`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(exported.status, 200);
    assert.match(exported.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = (await exported.text()).split('\r\n');
    assert.match(lines[0] as string, /^time,request_id,key_id,key_name,group,model,/);
    assert.match(lines[1] as string, new RegExp(`^\\d{4}-[^,]+,req_[^,]+,${key.id},logger,default,m-one,`));
    assert.deepEqual(lines.slice(2), ['']);
    const refused = await fetch(`${harness.url}/api/admin/logs/export?status=abc`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(refused.status, 400);
  });
});

describe('admin API: the admin token', () => {
  let harness: Harness;
  before(async () => {
    // These tests make dozens of failed attempts on purpose; the throttle has its own test.
    harness = await startHarness({ adminAuthThrottle: { maxFailures: 1_000 } });
  });
  after(() => harness.close());

  const routes: Array<[string, string]> = [
    ['GET', '/groups'],
    ['POST', '/groups'],
    ['DELETE', '/groups/default'],
    ['GET', '/channels'],
    ['POST', '/channels'],
    ['GET', '/channels/ch_x'],
    ['PATCH', '/channels/ch_x'],
    ['DELETE', '/channels/ch_x'],
    ['POST', '/channels/ch_x/test'],
    ['GET', '/keys'],
    ['POST', '/keys'],
    ['GET', '/keys/key_x'],
    ['PATCH', '/keys/key_x'],
    ['DELETE', '/keys/key_x'],
    ['GET', '/prices'],
    ['POST', '/prices'],
    ['GET', '/logs'],
  ];
  const badHeaders: Array<[string, Record<string, string>]> = [
    ['no header', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token' }],
    ['the token without Bearer', { authorization: ADMIN_TOKEN }],
    ['the token as x-api-key', { 'x-api-key': ADMIN_TOKEN }],
  ];

  for (const [label, headers] of badHeaders) {
    test(`answers 401 to ${label} on every route, before reading the body`, async () => {
      for (const [method, path] of routes) {
        const response = await fetch(`${harness.url}/api/admin${path}`, {
          method,
          headers: { ...headers, 'content-type': 'application/json' },
          ...(method === 'POST' || method === 'PATCH' ? { body: JSON.stringify({ name: 'sneaky', group: 'default' }) } : {}),
        });
        assert.equal(response.status, 401, `${method} ${path}`);
        const body = (await response.json()) as { error: { code: string; message: string } };
        assert.equal(body.error.code, 'admin_unauthorized');
        assert.match(body.error.message, /GATEWAY_ADMIN_TOKEN/);
      }
      assert.deepEqual(
        (await harness.admin('GET', '/groups')).data.map((group: { name: string }) => group.name),
        ['default'],
      );
      assert.deepEqual((await harness.admin('GET', '/keys')).data, []);
    });
  }

  test('does not take a client API key as the admin token', async () => {
    const { key } = await harness.addKey();
    const response = await fetch(`${harness.url}/api/admin/keys`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(response.status, 401);
  });
});
