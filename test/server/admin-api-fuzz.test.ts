import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';

/** Values a confused or hostile client might put in any field. */
const junk = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', 'default', 'openai', 'http://x', 'https://api.example.com/v1', '2030-01-01T00:00:00Z', '10.0.0.0/8', '__proto__', 'constructor'),
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e300, -1, 0, 2 ** 53, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constant('__proto__')), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 3 }),
);

let counter = 0;

/**
 * Either a body of the route's field names with junk values, or a valid body with a few fields
 * replaced by junk, so that validation, group checks and store writes are all reached.
 */
function bodyFor(fields: string[], valid: () => Record<string, unknown>) {
  const overrides = fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })), junk, { maxKeys: 3 });
  return fc.oneof(
    fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })), junk, { maxKeys: fields.length + 1 }),
    overrides.map((replaced) => ({ ...valid(), ...replaced })),
  );
}

const validGroup = () => ({ name: `g${(counter += 1)}` });
const validChannel = () => ({
  name: `c${(counter += 1)}`,
  provider: 'openai',
  baseUrl: 'https://api.example.com/v1',
  apiKey: 'sk-fuzz-0123456789',
  models: ['m'],
  groups: ['default'],
});
const validKey = () => ({ name: `k${(counter += 1)}`, group: 'default' });
const validPrice = () => ({ model: `p${(counter += 1)}`, input: 1, output: 2 });

const GROUP_FIELDS = ['name', 'description', 'priceMultiplier'];
const CHANNEL_FIELDS = [
  'name',
  'provider',
  'baseUrl',
  'apiKey',
  'apiKeys',
  'models',
  'groups',
  'modelMap',
  'priority',
  'weight',
  'enabled',
  'supportsResponses',
  'allowedPrefixes',
];
const KEY_FIELDS = ['name', 'group', 'expiresAt', 'balance', 'quota', 'allowedModels', 'allowedIps', 'enabled', 'limits'];
const PRICE_FIELDS = ['model', 'input', 'output', 'cacheRead', 'cacheWrite'];

describe('admin API under random input: never a 500, and a success always reads back', () => {
  let harness: Harness;
  const ids: Record<string, string> = {};

  before(async () => {
    harness = await startHarness();
    ids.channel = (await harness.addChannel({ provider: 'openai', models: ['m'] })).id;
    ids.key = (await harness.addKey()).id;
  });
  after(() => harness.close());

  const send = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${harness.url}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  const routes: Array<[string, string, () => string, string[], () => Record<string, unknown>, string | undefined]> = [
    ['POST', '/groups', () => '/groups', GROUP_FIELDS, validGroup, undefined],
    ['POST', '/channels', () => '/channels', CHANNEL_FIELDS, validChannel, '/channels'],
    ['PATCH', '/channels/:id', () => `/channels/${ids.channel}`, CHANNEL_FIELDS, () => ({}), '/channels'],
    ['POST', '/keys', () => '/keys', KEY_FIELDS, validKey, '/keys'],
    ['PATCH', '/keys/:id', () => `/keys/${ids.key}`, KEY_FIELDS, () => ({}), '/keys'],
    ['POST', '/prices', () => '/prices', PRICE_FIELDS, validPrice, undefined],
  ];

  for (const [method, label, path, fields, valid, readBack] of routes) {
    test(`${method} ${label}`, async () => {
      let successes = 0;
      await fc.assert(
        fc.asyncProperty(bodyFor(fields, valid), async (body) => {
          const { status, body: answer } = await send(method, path(), body);
          assert.ok([200, 201, 400, 404, 409].includes(status), `answered ${status}: ${JSON.stringify(answer)}`);
          if (status >= 400) {
            assert.equal(typeof answer.error.message, 'string');
            return;
          }
          successes += 1;
          if (readBack !== undefined) {
            const stored = await send('GET', `${readBack}/${answer.id}`, undefined);
            assert.equal(stored.status, 200);
            assert.equal(stored.body.name, answer.name);
          }
        }),
        { numRuns: 200, seed: 20261121 },
      );
      assert.ok(successes > 5, `only ${successes} bodies were accepted; the generator no longer reaches the store`);
    });
  }

  test('GET /logs with random query strings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('limit', 'key', 'group', 'model', 'channel', 'status', 'from', 'to', 'x'), fc.string({ maxLength: 12 }), { maxKeys: 4 }),
        async (query) => {
          const response = await fetch(`${harness.url}/api/admin/logs?${new URLSearchParams(query)}`, {
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          });
          assert.ok([200, 400].includes(response.status), `answered ${response.status}: ${await response.text()}`);
        },
      ),
      { numRuns: 150, seed: 20261121 },
    );
  });
});
