import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { UsageLogEntry } from '../../src/domain/usage-log-entry.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

const DAY = 86_400_000;

describe('the status page against a recorded run', () => {
  let harness: Harness;
  let key = '';
  const chat = (body: Record<string, unknown> = {}) =>
    fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body }),
    });

  before(async () => {
    harness = await startHarness({ notifications: { outboxPollMs: 0, scanIntervalMs: 0 } });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o'], name: 'secret-upstream-name' });
    key = (await harness.addKey()).key;
  });
  after(() => harness.close());

  test('off by default: /status and /api/status are 404', async () => {
    assert.equal((await fetch(`${harness.url}/api/status`)).status, 404);
    assert.equal((await fetch(`${harness.url}/status`)).status, 404);
  });

  test('six answers, one refused for the client, eight upstream failures that trip the circuit: the figures and the incident', async () => {
    harness.simulator.setDefault({ text: 'ok', delayMs: 150 });
    for (let index = 0; index < 6; index += 1) assert.equal((await chat()).status, 200);
    harness.simulator.enqueue({ fault: { type: 'status', status: 400, message: 'bad request' } });
    assert.equal((await chat()).status, 400);
    harness.simulator.setDefault({ fault: { type: 'status', status: 503, message: 'overloaded' } });
    // Six failures against six successes cross the circuit's 50 % within its minute; the last two find it open.
    for (let index = 0; index < 8; index += 1) assert.ok((await chat()).status >= 500);
    // Older traffic the recorded run does not have: 3 days ago (in 7 d and 30 d) and 20 days ago (30 d only).
    const now = Date.now();
    const old = (requestId: string, time: number, status: number): UsageLogEntry => ({
      requestId,
      time,
      keyId: null,
      keyName: null,
      group: 'default',
      model: 'gpt-4o',
      upstreamModel: 'gpt-4o',
      channelId: null,
      channelName: null,
      clientProtocol: 'openai-chat',
      upstreamProtocol: 'openai-chat',
      surface: null,
      status,
      errorCode: null,
      errorMessage: null,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costMicros: 0,
      latencyMs: 100,
      ttftMs: null,
      stream: false,
      warnings: [],
      attempts: [],
      clientIp: null,
    });
    await harness.gateway.store.usage.insertMany([
      old('old-1', now - 3 * DAY, 200),
      old('old-2', now - 3 * DAY, 200),
      old('old-3', now - 20 * DAY, 502),
      old('old-4', now - 40 * DAY, 502),
    ]);

    await harness.admin('PATCH', '/account-settings', { statusPage: { enabled: true } });
    const response = await fetch(`${harness.url}/api/status`);
    assert.equal(response.status, 200);
    const status = (await response.json()) as any;
    assert.deepEqual(Object.keys(status), ['generatedAt', 'models']);
    assert.equal(status.models.length, 1);
    const model = status.models[0];
    assert.deepEqual(Object.keys(model), ['group', 'model', 'availability', 'successRate', 'ttfbMs', 'incidents']);
    assert.equal(model.group, 'default');
    assert.equal(model.model, 'gpt-4o');
    const round = (value: number) => Math.round(value * 10_000) / 10_000;
    // 24 h: 6 answered of 14 counted (the client's 400 is not the service's fault); 15 requests in all.
    assert.equal(model.availability['24h'], round(6 / 14));
    assert.equal(model.successRate, round(6 / 15));
    // 7 d adds two answers; 30 d also one failure (40 days ago is out of every window).
    assert.equal(model.availability['7d'], round(8 / 16));
    assert.equal(model.availability['30d'], round(8 / 17));
    // The successes took about 150 ms upstream: the histogram puts the median in the 150–200 ms bin or the next.
    assert.ok(model.ttfbMs.p50 >= 150 && model.ttfbMs.p50 <= 300, `p50 ${model.ttfbMs.p50}`);
    assert.ok(model.ttfbMs.p95 >= model.ttfbMs.p50 && model.ttfbMs.p95 <= 450, `p95 ${model.ttfbMs.p95}`);
    assert.equal(model.incidents.length, 1, JSON.stringify(model.incidents));
    assert.equal(model.incidents[0].endedAt, null, 'the circuit is still open');
    assert.ok(!JSON.stringify(status).includes('secret-upstream-name'), 'no channel name unless the operator opts in');

    const page = await fetch(`${harness.url}/status`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const html = await page.text();
    assert.match(html, /gpt-4o/);
    assert.match(html, /42\.86 %/);
    assert.ok(!html.includes('secret-upstream-name'));
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<th>Group<\/th>/);

    // The page speaks the console's languages: ?lang= first, then Accept-Language by q; the JSON stays English.
    const page1 = async (path: string, acceptLanguage?: string) =>
      (await fetch(`${harness.url}${path}`, { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} })).text();
    const chinese = await page1('/status?lang=zh-CN');
    assert.match(chinese, /<html lang="zh-CN">/);
    assert.match(chinese, /<h1>服务状态<\/h1>/, 'the default title follows the language');
    assert.match(chinese, /<th>分组<\/th>/);
    assert.match(chinese, /故障记录（30 天）/);
    assert.match(chinese, /进行中: 为该模型提供服务的一条线路中断/, 'the ongoing incident, translated');
    assert.match(chinese, /42\.86 %/);
    assert.match(await page1('/status', 'en;q=0.5, zh-CN;q=0.9'), /<html lang="zh-CN">/);
    assert.match(await page1('/status', 'zh-TW, zh-HK;q=0.8'), /<html lang="en">/, 'Traditional Chinese is not served Simplified by guess');
    assert.match(await page1('/status?lang=en', 'zh-CN'), /<html lang="en">/);
    assert.equal((await fetch(`${harness.url}/status`)).headers.get('vary')?.toLowerCase().includes('accept-language'), true);
  });

  test('channel names appear only when the operator opts in', async () => {
    await harness.admin('PATCH', '/account-settings', { statusPage: { enabled: true, showChannelNames: true } });
    const status = (await (await fetch(`${harness.url}/api/status`)).json()) as any;
    assert.match(status.models[0].incidents[0].summary, /secret-upstream-name/);
    const settings = await harness.admin('GET', '/account-settings');
    assert.deepEqual(settings.statusPage, { enabled: true, showChannelNames: true, title: 'Service status' });
    await harness.admin('PATCH', '/account-settings', { statusPage: { enabled: false } });
    assert.equal((await fetch(`${harness.url}/api/status`)).status, 404);
    await harness.admin('PATCH', '/account-settings', { statusPage: { enabled: 'yes' } }, 400);
  });
});
