import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

describe('the console as served by the gateway', () => {
  let harness: Harness;
  let asset: string;

  before(async () => {
    const dist = ensureConsoleBuilt();
    asset = readdirSync(`${dist}/assets`).find((name) => name.endsWith('.js'))!;
    harness = await startHarness();
  });
  after(() => harness.close());

  test('serves the app at /console with revalidation and a content security policy', async () => {
    for (const path of ['/console', '/console/']) {
      const response = await fetch(`${harness.url}${path}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      assert.match(await response.text(), /<div id="app">/);
    }
  });

  test('hashed assets are cached for good, with their own content type', async () => {
    const response = await fetch(`${harness.url}/console/assets/${asset}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  });

  test('a page path falls back to the app; a missing file or a path outside the build does not', async () => {
    const page = await fetch(`${harness.url}/console/keys`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<div id="app">/);
    assert.equal((await fetch(`${harness.url}/console/assets/missing.js`)).status, 404);
    assert.equal((await fetch(`${harness.url}/console/..%2F..%2Fpackage.json`)).status, 404);
    assert.equal((await fetch(`${harness.url}/console/%2e%2e/%2e%2e/package.json`)).status, 404);
  });

  test('a browser opening / is sent to the console; API clients probing / still get JSON', async () => {
    const browser = await fetch(`${harness.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, redirect: 'manual' });
    assert.equal(browser.status, 302);
    assert.equal(browser.headers.get('location'), '/console/');

    const probe = await fetch(`${harness.url}/`, { headers: { accept: '*/*' } });
    assert.equal(probe.status, 200);
    assert.equal(((await probe.json()) as { status: string }).status, 'ok');
    const head = await fetch(`${harness.url}/`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    const bare = await fetch(`${harness.url}/`, { headers: { accept: 'application/json' } });
    assert.equal(bare.status, 200);
  });

  test('the usage summary needs the admin token and counts a request once it is logged', async () => {
    const refused = await fetch(`${harness.url}/api/admin/insight/summary`);
    assert.equal(refused.status, 401);

    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
    const { key } = await harness.addKey();
    harness.simulator.enqueue({ text: 'Hi.', usage: { input: 11, output: 2 } });
    const chat = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
    });
    assert.equal(chat.status, 200);

    const answer = await fetch(`${harness.url}/api/admin/insight/summary?range=1h`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(answer.status, 200);
    const summary = (await answer.json()) as {
      series: Array<{ requests: number }>;
      totals: { requests: number; inputTokens: number };
      topModels: Array<{ id: string }>;
    };
    assert.equal(summary.series.length, 60);
    assert.equal(summary.totals.requests, 1);
    assert.equal(summary.totals.inputTokens, 11);
    assert.equal(summary.series.at(-1)?.requests, 1, 'the newest bucket holds the request');
    assert.deepEqual(
      summary.topModels.map((row) => row.id),
      ['gpt-4o-mini'],
    );

    const badRange = await fetch(`${harness.url}/api/admin/insight/summary?range=2y`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(badRange.status, 400);
  });
});
