import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { callSurface } from './surface-calls.ts';

describe('self-service: /api/me and the model check', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
    await harness.admin('POST', '/groups', { name: 'vip' });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], enabled: false });
    await harness.addChannel({ provider: 'openai', models: ['secret-model'], groups: ['vip'] });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 1, output: 1 });
    harness.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 5 } });
  });
  after(() => harness.close());

  const getJson = async (path: string, key: string) => {
    const response = await fetch(`${harness.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: (await response.json()) as any };
  };

  test('/api/me: group, models, balance, limits, expiry and recent usage', async () => {
    const { key } = await harness.addKey({ balance: 2, limits: { requestsPerMinute: 60, dailySpend: 1 } });
    assert.equal((await callSurface(harness.url, 'openai-chat', { key })).status, 200);
    const { status, body } = await getJson('/api/me', key);
    assert.equal(status, 200);
    assert.equal(body.key.status, 'active');
    assert.equal(body.group.name, 'default');
    assert.deepEqual(body.models, ['gpt-4o-mini']);
    assert.equal(body.balance, 2 - 0.000015);
    assert.equal(body.limits.requestsPerMinute, 60);
    assert.equal(body.limits.spend[0].period, 'daily');
    assert.equal(body.limits.spend[0].spent, 0.000015);
    assert.equal(body.ip.seen, '127.0.0.1');
    assert.equal(body.recentUsage.length, 1);
    assert.equal(body.recentUsage[0].cost, 0.000015);
  });

  test('/api/me refuses an expired key like the generation routes do, saying when it expired; an unknown one is 401', async () => {
    const { key } = await harness.addKey({ expiresAt: '2021-01-01T00:00:00Z' });
    const { status, body } = await getJson('/api/me', key);
    assert.equal(status, 403);
    assert.equal(body.error.code, 'key_expired');
    assert.match(body.error.message, /expired at 2021-01-01T00:00:00\.000Z/);
    const unknown = await getJson('/api/me', 'sk-nope');
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error.code, 'invalid_api_key');
  });

  test('the model check: six steps in order, each with a verdict', async () => {
    const { key } = await harness.addKey();
    const { body } = await getJson(`/api/diagnose?model=${encodeURIComponent('gpt-4o-mini')}&client=gemini-cli`, key);
    assert.equal(body.verdict, 'pass');
    assert.deepEqual(
      body.checks.map((check: any) => [check.step, check.name, check.verdict]),
      [
        [1, 'key-group', 'pass'],
        [2, 'group-has-model', 'pass'],
        [3, 'model-spelling', 'pass'],
        [4, 'client-protocol', 'pass'],
        [5, 'channel-availability', 'pass'],
        [6, 'subscription', 'pass'],
      ],
    );
    assert.match(body.checks[0].detail, /bound to group "default"/);
    assert.match(body.checks[3].detail, new RegExp(`GOOGLE_GEMINI_BASE_URL=${harness.url.replace(/[.]/g, '\\.')} \\(the root, not /v1beta\\)`));
    assert.match(body.checks[4].detail, /1 enabled channel\(s\).*\(1 more disabled\)/);
    assert.equal(body.setup.baseUrl, harness.url);
  });

  test('the model check finds the trailing space, and never names other groups', async () => {
    const { key } = await harness.addKey({ balance: 0 });
    const spaced = (await getJson(`/api/diagnose?model=${encodeURIComponent('gpt-4o-mini ')}&client=openai-sdk`, key)).body;
    assert.equal(spaced.verdict, 'fail');
    assert.equal(spaced.checks[0].verdict, 'fail');
    assert.match(spaced.checks[0].detail, /no balance left/);
    assert.equal(spaced.checks[2].verdict, 'fail');
    assert.match(spaced.checks[2].detail, /Did you mean "gpt-4o-mini"\? The name has a trailing space\./);
    assert.equal(spaced.setup.baseUrl, `${harness.url}/v1`);
    const other = (await getJson('/api/diagnose?model=secret-model&client=codex', key)).body;
    assert.equal(other.checks[1].verdict, 'fail');
    // By default the check does not even say another group has it (REVEAL_OTHER_GROUP_MODELS opts in).
    assert.doesNotMatch(other.checks[1].detail, /other groups/);
    assert.doesNotMatch(JSON.stringify(other), /vip/);
    const noClient = (await getJson('/api/diagnose?model=gpt-4o-mini', key)).body;
    assert.equal(noClient.checks[3].verdict, 'skip');
    assert.match(noClient.checks[3].detail, /openai-sdk, openai-http, claude-code/);
  });

  test('the CLI prints the checklist', async () => {
    const { key } = await harness.addKey();
    // Asynchronous: the gateway under test runs in this very process and must keep answering.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['bin/switchyard-diagnose.mjs', '--model', 'gpt-4o-mini ', '--client', 'openai-sdk'],
        { env: { ...process.env, SWITCHYARD_URL: harness.url, SWITCHYARD_API_KEY: key }, encoding: 'utf8' },
        (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
      );
    });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /✓ 1\. key-group/);
    assert.match(run.stdout, /✗ 3\. model-spelling: .*trailing space/);
    assert.match(run.stdout, /Base address: .*\/v1/);
  });
});

describe('admin usage per day', () => {
  test('GET /api/admin/usage by key and by model', async () => {
    const harness = await startHarness();
    try {
      await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
      await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 1, output: 1 });
      harness.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 5 } });
      const { id, key } = await harness.addKey();
      await callSurface(harness.url, 'openai-chat', { key });
      await callSurface(harness.url, 'openai-chat', { key, model: 'nope' });
      const byKey = await harness.admin('GET', '/usage?by=key');
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual(
        byKey.data.map((row: any) => [row.day, row.subject, row.requests, row.errors, row.costMicros, row.cost]),
        [[today, id, 2, 1, 15, 0.000015]],
      );
      const byModel = await harness.admin('GET', `/usage?by=model&from=${today}`);
      assert.deepEqual(
        byModel.data.map((row: any) => [row.subject, row.requests]),
        [
          ['gpt-4o-mini', 1],
          ['nope', 1],
        ],
      );
      await harness.admin('GET', '/usage?by=channel', undefined, 400);
      const unauthorized = await fetch(`${harness.url}/api/admin/usage`);
      assert.equal(unauthorized.status, 401);
    } finally {
      await harness.close();
    }
  });
});
