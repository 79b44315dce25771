import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';

interface BadInput {
  label: string;
  method: 'POST' | 'PATCH' | 'DELETE' | 'GET';
  /** `:channel` and `:key` are replaced with the ids of existing records. */
  path: string;
  /** An object is sent as JSON; a string is sent as it is. */
  body?: unknown;
  status: 400 | 404 | 409;
  /** The field the answer must name (in `param` and in the message), or null. */
  param: string | null;
  message: RegExp;
}

const channel = (fields: Record<string, unknown> = {}) => ({
  name: 'fresh-channel',
  provider: 'openai',
  baseUrl: 'https://api.example.com/v1',
  apiKey: 'sk-upstream-0123456789',
  models: ['gpt-4o-mini'],
  groups: ['default'],
  ...fields,
});
const without = (record: Record<string, unknown>, field: string) => {
  const { [field]: _dropped, ...rest } = record;
  return rest;
};

const CASES: BadInput[] = [
  // Groups
  { label: 'group without a name', method: 'POST', path: '/groups', body: {}, status: 400, param: 'name', message: /^name: is required/ },
  { label: 'group name of the wrong type', method: 'POST', path: '/groups', body: { name: 5 }, status: 400, param: 'name', message: /^name: must be a string/ },
  {
    label: 'group name with a space',
    method: 'POST',
    path: '/groups',
    body: { name: 'two words' },
    status: 400,
    param: 'name',
    message: /^name: may contain letters, digits/,
  },
  {
    label: 'duplicate group',
    method: 'POST',
    path: '/groups',
    body: { name: 'taken' },
    status: 409,
    param: 'name',
    message: /a group named "taken" already exists/,
  },
  {
    label: 'unknown group field',
    method: 'POST',
    path: '/groups',
    body: { name: 'typo', descripton: 'x' },
    status: 400,
    param: 'descripton',
    message: /unknown field "descripton"/,
  },
  {
    label: 'negative group multiplier',
    method: 'POST',
    path: '/groups',
    body: { name: 'free', priceMultiplier: -1 },
    status: 400,
    param: 'priceMultiplier',
    message: /^priceMultiplier: must not be negative/,
  },
  {
    label: 'patch of an unknown group',
    method: 'PATCH',
    path: '/groups/ghost',
    body: { description: 'x' },
    status: 404,
    param: null,
    message: /No group "ghost" exists/,
  },
  { label: 'delete of an unknown group', method: 'DELETE', path: '/groups/ghost', status: 404, param: null, message: /No group "ghost" exists/ },

  // Channels
  {
    label: 'channel without models',
    method: 'POST',
    path: '/channels',
    body: without(channel(), 'models'),
    status: 400,
    param: 'models',
    message: /^models: is required/,
  },
  {
    label: 'channel without a secret',
    method: 'POST',
    path: '/channels',
    body: without(channel(), 'apiKey'),
    status: 400,
    param: 'apiKey',
    message: /^apiKey: is required/,
  },
  {
    label: 'channel without a base address',
    method: 'POST',
    path: '/channels',
    body: without(channel(), 'baseUrl'),
    status: 400,
    param: 'baseUrl',
    message: /^baseUrl: is required/,
  },
  {
    label: 'channel with a bad URL',
    method: 'POST',
    path: '/channels',
    body: channel({ baseUrl: 'api.example.com/v1' }),
    status: 400,
    param: 'baseUrl',
    message: /^baseUrl: must be an http\(s\) URL/,
  },
  {
    label: 'channel with a non-http URL',
    method: 'POST',
    path: '/channels',
    body: channel({ baseUrl: 'ftp://example.com' }),
    status: 400,
    param: 'baseUrl',
    message: /^baseUrl: must be an http\(s\) URL/,
  },
  {
    label: 'channel with an unknown provider',
    method: 'POST',
    path: '/channels',
    body: channel({ provider: 'mistral' }),
    status: 400,
    param: 'provider',
    message: /^provider: must be one of openai, anthropic, gemini/,
  },
  {
    label: 'channel with models as a string',
    method: 'POST',
    path: '/channels',
    body: channel({ models: 'gpt-4o' }),
    status: 400,
    param: 'models',
    message: /^models: must be an array/,
  },
  {
    label: 'channel with no models',
    method: 'POST',
    path: '/channels',
    body: channel({ models: [] }),
    status: 400,
    param: 'models',
    message: /^models: needs at least one model/,
  },
  {
    label: 'channel with a fractional priority',
    method: 'POST',
    path: '/channels',
    body: channel({ priority: 1.5 }),
    status: 400,
    param: 'priority',
    message: /^priority: must be a whole number/,
  },
  {
    label: 'channel with a string weight',
    method: 'POST',
    path: '/channels',
    body: channel({ weight: '2' }),
    status: 400,
    param: 'weight',
    message: /^weight: must be a number/,
  },
  {
    label: 'channel with a huge weight',
    method: 'POST',
    path: '/channels',
    body: channel({ weight: 1e15 }),
    status: 400,
    param: 'weight',
    message: /^weight: must be at most/,
  },
  {
    label: 'channel with enabled as a string',
    method: 'POST',
    path: '/channels',
    body: channel({ enabled: 'yes' }),
    status: 400,
    param: 'enabled',
    message: /^enabled: must be true or false/,
  },
  {
    label: 'channel with a list as model map',
    method: 'POST',
    path: '/channels',
    body: channel({ modelMap: ['a'] }),
    status: 400,
    param: 'modelMap',
    message: /^modelMap: must be an object/,
  },
  {
    label: 'channel with both apiKey and apiKeys',
    method: 'POST',
    path: '/channels',
    body: channel({ apiKeys: ['sk-other-0123456789'] }),
    status: 400,
    param: 'apiKeys',
    message: /^apiKeys: give either apiKey or apiKeys/,
  },
  {
    label: 'channel in an unknown group',
    method: 'POST',
    path: '/channels',
    body: channel({ groups: ['default', 'ghost'] }),
    status: 400,
    param: 'groups',
    message: /^groups: group "ghost" does not exist/,
  },
  {
    label: 'channel with an unknown field',
    method: 'POST',
    path: '/channels',
    body: channel({ modles: ['x'] }),
    status: 400,
    param: 'modles',
    message: /unknown field "modles"/,
  },
  {
    label: 'duplicate channel',
    method: 'POST',
    path: '/channels',
    body: channel({ name: 'existing-channel' }),
    status: 409,
    param: 'name',
    message: /a channel named "existing-channel" already exists/,
  },
  {
    label: 'channel patch with a bad URL',
    method: 'PATCH',
    path: '/channels/:channel',
    body: { baseUrl: 'nope' },
    status: 400,
    param: 'baseUrl',
    message: /^baseUrl: must be an http\(s\) URL/,
  },
  {
    label: 'channel patch into an unknown group',
    method: 'PATCH',
    path: '/channels/:channel',
    body: { groups: ['ghost'] },
    status: 400,
    param: 'groups',
    message: /^groups: group "ghost" does not exist/,
  },
  {
    label: 'channel patch with an unknown field',
    method: 'PATCH',
    path: '/channels/:channel',
    body: { colour: 'red' },
    status: 400,
    param: 'colour',
    message: /unknown field "colour"/,
  },
  {
    label: 'channel patch taking a used name',
    method: 'PATCH',
    path: '/channels/:channel',
    body: { name: 'other-channel' },
    status: 409,
    param: 'name',
    message: /a channel named "other-channel" already exists/,
  },
  { label: 'get of an unknown channel', method: 'GET', path: '/channels/ch_ghost', status: 404, param: null, message: /No channel "ch_ghost" exists/ },
  {
    label: 'patch of an unknown channel',
    method: 'PATCH',
    path: '/channels/ch_ghost',
    body: { enabled: false },
    status: 404,
    param: null,
    message: /No channel "ch_ghost" exists/,
  },
  { label: 'delete of an unknown channel', method: 'DELETE', path: '/channels/ch_ghost', status: 404, param: null, message: /No channel "ch_ghost" exists/ },

  // Keys
  { label: 'key without a group', method: 'POST', path: '/keys', body: { name: 'nogroup' }, status: 400, param: 'group', message: /^group: is required/ },
  { label: 'key without a name', method: 'POST', path: '/keys', body: { group: 'default' }, status: 400, param: 'name', message: /^name: is required/ },
  {
    label: 'key with an empty name',
    method: 'POST',
    path: '/keys',
    body: { name: '', group: 'default' },
    status: 400,
    param: 'name',
    message: /^name: must not be empty/,
  },
  {
    label: 'key in an unknown group',
    method: 'POST',
    path: '/keys',
    body: { name: 'lost', group: 'ghost' },
    status: 400,
    param: 'group',
    message: /^group: group "ghost" does not exist/,
  },
  {
    label: 'duplicate key',
    method: 'POST',
    path: '/keys',
    body: { name: 'existing-key', group: 'default' },
    status: 409,
    param: 'name',
    message: /a key named "existing-key" already exists/,
  },
  {
    label: 'key with a text quota',
    method: 'POST',
    path: '/keys',
    body: { name: 'q', group: 'default', quota: 'lots' },
    status: 400,
    param: 'quota',
    message: /^quota: must be a number or null/,
  },
  {
    label: 'key with a negative balance',
    method: 'POST',
    path: '/keys',
    body: { name: 'q', group: 'default', balance: -1 },
    status: 400,
    param: 'balance',
    message: /^balance: must not be negative/,
  },
  {
    label: 'key with an absurd balance',
    method: 'POST',
    path: '/keys',
    body: { name: 'q', group: 'default', balance: 1e300 },
    status: 400,
    param: 'balance',
    message: /^balance: must be at most/,
  },
  {
    label: 'key with a bad expiry',
    method: 'POST',
    path: '/keys',
    body: { name: 'q', group: 'default', expiresAt: 'tomorrow' },
    status: 400,
    param: 'expiresAt',
    message: /^expiresAt: must be an ISO 8601 date or date-time with a zone/,
  },
  {
    label: 'key with a bad IP',
    method: 'POST',
    path: '/keys',
    body: { name: 'q', group: 'default', allowedIps: ['localhost'] },
    status: 400,
    param: 'allowedIps.0',
    message: /^allowedIps\.0: must be an IP address or CIDR/,
  },
  {
    label: 'key with allowedModels as a string',
    method: 'POST',
    path: '/keys',
    body: { name: 'q', group: 'default', allowedModels: 'gpt-4o' },
    status: 400,
    param: 'allowedModels',
    message: /^allowedModels: must be an array or null/,
  },
  {
    label: 'key with an unknown limit',
    method: 'POST',
    path: '/keys',
    body: { name: 'q', group: 'default', limits: { rpm: 5 } },
    status: 400,
    param: 'limits.rpm',
    message: /^limits: unknown field "rpm"/,
  },
  {
    label: 'key with an unknown field',
    method: 'POST',
    path: '/keys',
    body: { name: 'q', group: 'default', key: 'sk-mine' },
    status: 400,
    param: 'key',
    message: /unknown field "key"/,
  },
  {
    label: 'key patch into an unknown group',
    method: 'PATCH',
    path: '/keys/:key',
    body: { group: 'ghost' },
    status: 400,
    param: 'group',
    message: /^group: group "ghost" does not exist/,
  },
  {
    label: 'key patch taking a used name',
    method: 'PATCH',
    path: '/keys/:key',
    body: { name: 'other-key' },
    status: 409,
    param: 'name',
    message: /a key named "other-key" already exists/,
  },
  {
    label: 'key patch with enabled as a number',
    method: 'PATCH',
    path: '/keys/:key',
    body: { enabled: 0 },
    status: 400,
    param: 'enabled',
    message: /^enabled: must be true or false/,
  },
  { label: 'get of an unknown key', method: 'GET', path: '/keys/key_ghost', status: 404, param: null, message: /No key "key_ghost" exists/ },
  {
    label: 'patch of an unknown key',
    method: 'PATCH',
    path: '/keys/key_ghost',
    body: { enabled: false },
    status: 404,
    param: null,
    message: /No key "key_ghost" exists/,
  },
  { label: 'delete of an unknown key', method: 'DELETE', path: '/keys/key_ghost', status: 404, param: null, message: /No key "key_ghost" exists/ },

  // Prices and logs
  {
    label: 'price without input',
    method: 'POST',
    path: '/prices',
    body: { model: 'm', output: 1 },
    status: 400,
    param: 'input',
    message: /^input: is required/,
  },
  {
    label: 'price as a string',
    method: 'POST',
    path: '/prices',
    body: { model: 'm', input: '1', output: 1 },
    status: 400,
    param: 'input',
    message: /^input: must be a number/,
  },
  {
    label: 'negative price',
    method: 'POST',
    path: '/prices',
    body: { model: 'm', input: 1, output: -1 },
    status: 400,
    param: 'output',
    message: /^output: must not be negative/,
  },
  {
    label: 'price with an unknown field',
    method: 'POST',
    path: '/prices',
    body: { model: 'm', input: 1, output: 1, currency: 'EUR' },
    status: 400,
    param: 'currency',
    message: /unknown field "currency"/,
  },
  {
    label: 'delete of an unknown price',
    method: 'DELETE',
    path: '/prices/ghost-model',
    status: 404,
    param: null,
    message: /No price for model "ghost-model" exists/,
  },
  { label: 'log limit that is not a number', method: 'GET', path: '/logs?limit=ten', status: 400, param: 'limit', message: /^limit: must be a number/ },
  { label: 'log limit of zero', method: 'GET', path: '/logs?limit=0', status: 400, param: 'limit', message: /^limit: must be at least 1/ },
  { label: 'log limit too large', method: 'GET', path: '/logs?limit=5000', status: 400, param: 'limit', message: /^limit: must be at most 1000/ },
  { label: 'log status that is not a number', method: 'GET', path: '/logs?status=ok', status: 400, param: 'status', message: /^status: must be a number/ },

  // Accounts: one rule for every signed amount (a wallet top-up and a user's balanceDelta agree)
  {
    label: 'top-up of nothing',
    method: 'POST',
    path: '/users/:user/top-ups',
    body: { amount: 0, note: 'x' },
    status: 400,
    param: 'amount',
    message: /^amount: must not be 0/,
  },
  {
    label: 'top-up past the bound',
    method: 'POST',
    path: '/users/:user/top-ups',
    body: { amount: 2e9, note: 'x' },
    status: 400,
    param: 'amount',
    message: /^amount: must be at most 1000000000 \(USD\)/,
  },
  {
    label: 'balanceDelta past the bound',
    method: 'PATCH',
    path: '/users/:user',
    body: { balanceDelta: -2e9 },
    status: 400,
    param: 'balanceDelta',
    message: /^balanceDelta: must be at least -1000000000 \(USD\)/,
  },
  {
    label: 'default group that is no group name',
    method: 'PATCH',
    path: '/account-settings',
    body: { defaultGroup: 'two words' },
    status: 400,
    param: 'defaultGroup',
    message: /^defaultGroup: may contain letters, digits/,
  },

  // Bodies that are not a JSON object
  { label: 'non-JSON body', method: 'POST', path: '/keys', body: '{"name": "half', status: 400, param: null, message: /not valid JSON/ },
  { label: 'form-encoded body', method: 'POST', path: '/groups', body: 'name=x', status: 400, param: null, message: /not valid JSON/ },
  { label: 'JSON array body', method: 'POST', path: '/channels', body: '[]', status: 400, param: null, message: /must be a JSON object/ },
  { label: 'JSON string body', method: 'PATCH', path: '/keys/:key', body: '"enabled"', status: 400, param: null, message: /must be a JSON object/ },
];

describe('admin API: every bad input is a 400/404/409 naming the field, and writes nothing', () => {
  let harness: Harness;
  const ids: Record<string, string> = {};

  const snapshotAll = async () => {
    const [groups, channels, keys, prices] = await Promise.all(['/groups', '/channels', '/keys', '/prices'].map((path) => harness.admin('GET', path)));
    return { groups, channels, keys, prices };
  };

  before(async () => {
    harness = await startHarness();
    await harness.admin('POST', '/groups', { name: 'taken' }, 201);
    ids.channel = (await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], name: 'existing-channel' })).id;
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o'], name: 'other-channel' });
    ids.key = (await harness.addKey({ name: 'existing-key' })).id;
    ids.user = (await harness.admin('POST', '/users', { name: 'existing-user' }, 201)).id;
    await harness.addKey({ name: 'other-key' });
  });
  after(() => harness.close());

  for (const bad of CASES) {
    test(bad.label, async () => {
      const before = await snapshotAll();
      const path = bad.path
        .replace(':channel', ids.channel ?? '')
        .replace(':key', ids.key ?? '')
        .replace(':user', ids.user ?? '');
      const response = await fetch(`${harness.url}/api/admin${path}`, {
        method: bad.method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(bad.body === undefined ? {} : { body: typeof bad.body === 'string' ? bad.body : JSON.stringify(bad.body) }),
      });
      const text = await response.text();
      assert.equal(response.status, bad.status, text);
      const { error } = JSON.parse(text) as { error: { message: string; param: string | null; code: string } };
      assert.equal(error.code, bad.status === 400 ? 'invalid_request' : bad.status === 404 ? 'not_found' : 'conflict');
      assert.equal(error.param, bad.param);
      assert.match(error.message, bad.message);
      assert.match(error.message, /\(request id: req_\w+\)$/);
      assert.deepEqual(await snapshotAll(), before, 'a refused request changed stored records');
    });
  }

  test('a refused create leaves the name free for a good one', async () => {
    await harness.admin('POST', '/channels', channel({ name: 'second-try', groups: ['ghost'] }), 400);
    const created = await harness.admin('POST', '/channels', channel({ name: 'second-try' }), 201);
    assert.equal(created.name, 'second-try');
    await harness.admin('POST', '/keys', { name: 'second-key', group: 'ghost' }, 400);
    await harness.admin('POST', '/keys', { name: 'second-key', group: 'default' }, 201);
  });

  test('a channel created without groups serves the default group, as one from the config file does', async () => {
    const created = await harness.admin('POST', '/channels', without(channel({ name: 'no-groups' }), 'groups'), 201);
    assert.deepEqual(created.groups, ['default']);
    const stored = await harness.admin('GET', `/channels/${created.id}`);
    assert.deepEqual(stored.groups, ['default']);
  });
});
