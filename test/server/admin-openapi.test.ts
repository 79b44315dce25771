import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ADMIN_OPERATIONS } from '../../src/server/admin/admin-api-description.ts';
import { checkAdminRoutesDescribed } from '../../src/server/admin/admin-openapi-routes.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;

describe('the admin API OpenAPI description', () => {
  let harness: Harness;
  let document: Json;

  before(async () => {
    harness = await startHarness();
    // No token: the description holds nothing of this gateway's.
    const response = await fetch(`${harness.url}/api/admin/openapi.json`);
    assert.equal(response.status, 200);
    document = (await response.json()) as Json;
  });
  after(() => harness.close());

  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(document.openapi, '3.1.0');
  });

  test('request bodies are the schemas the API validates with: the described schema and the API agree on sample bodies', async () => {
    const ajv = new Ajv2020({ strict: false });
    const createKey = ajv.compile(document.paths['/api/admin/keys'].post.requestBody.content['application/json'].schema);
    const cases: Array<[Json, boolean]> = [
      [{ name: 'k1', group: 'default' }, true],
      [{ name: 'k1', group: 'default', limits: { requestsPerMinute: 0 } }, false],
      [{ name: 'k1', group: 'default', balance: -1 }, false],
      [{ name: 'k1', group: 'default', modles: ['m'] }, false],
      [{ name: 'k1' }, false],
    ];
    for (const [body, valid] of cases) {
      assert.equal(createKey(body), valid, `described schema on ${JSON.stringify(body)}`);
      const response = await harness.admin('POST', '/keys', body, valid ? 201 : 400);
      assert.ok(response, JSON.stringify(body));
    }
  });

  test('query parameters are listed with their schema', () => {
    const logs = document.paths['/api/admin/logs'].get as Json;
    const names = (logs.parameters as Json[]).map((parameter) => parameter.name);
    for (const name of ['limit', 'key', 'model', 'channel', 'status', 'from', 'to', 'cursor']) assert.ok(names.includes(name), name);
  });

  test('describes every admin operation, and every described operation answers (refused for the token, not a 404); last, as it trips the failed-auth throttle', async () => {
    const described = Object.entries(document.paths as Record<string, Json>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.equal(described.length, ADMIN_OPERATIONS.length);
    // The console's sign-in is the one operation that answers without a credential.
    const open = new Set(
      ADMIN_OPERATIONS.filter((operation) => operation.permission === 'public').map(
        (operation) => `${operation.method} ${operation.route.replace(/:(\w+)/g, '{$1}')}`,
      ),
    );
    for (const entry of described.filter((operation) => !open.has(operation))) {
      const [method, path] = entry.split(' ') as [string, string];
      const response = await fetch(`${harness.url}${path.replace(/\{\w+\}/g, 'x')}`, {
        method,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}', headers: { 'content-type': 'application/json' } }),
      });
      // 401, or 429 once the failed-auth throttle closes in: either way the admin check answered.
      assert.ok([401, 429].includes(response.status), `${entry}: ${response.status}`);
    }
  });

  test('a gateway with an admin route missing from the description refuses to start, naming it', async () => {
    const app = Fastify();
    checkAdminRoutesDescribed(app);
    for (const operation of ADMIN_OPERATIONS) app.route({ method: operation.method, url: operation.route, handler: async () => ({}) });
    app.get('/api/admin/ghost', async () => ({}));
    await assert.rejects(async () => {
      await app.ready();
    }, /GET \/api\/admin\/ghost has no entry/);
    const complete = Fastify();
    checkAdminRoutesDescribed(complete);
    for (const operation of ADMIN_OPERATIONS) complete.route({ method: operation.method, url: operation.route, handler: async () => ({}) });
    await complete.ready();
    await complete.close();
  });
});
