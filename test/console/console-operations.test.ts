import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { UsageLogEntry } from '../../src/domain/usage-log-entry.ts';
import { ADMIN_TOKEN, startHarness, UPSTREAM_SECRET, type Harness } from '../helpers/gateway-harness.ts';
import { startProviderSimulator, type ProviderSimulator } from '../simulator/provider-simulator.ts';
import { followPageLink, launchChromium, screenshotDirectory, type Browser, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

/**
 * The operator's view of what happens, in Chromium: channel health states with their reasons,
 * the logs page (names as filters, paging past 200 rows, CSV export, the failing channel and the
 * retries in the table), the audit log, the unpriced-model warning, dark mode and phone width.
 */
describe('the console shows what happens', { timeout: 180_000 }, () => {
  let harness: Harness;
  let flaky: ProviderSimulator;
  let browser: Browser;
  let page: Page;
  let key = '';
  const shots = screenshotDirectory();
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const go = async (label: string) => {
    await followPageLink(page, label);
    await page.getByRole('heading', { level: 1, name: label }).waitFor();
  };
  const chat = (model: string) =>
    fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    }).then(async (response) => (await response.text(), response.status));

  before(async () => {
    ensureConsoleBuilt();
    harness = await startHarness({
      circuit: { windowMs: 60_000, minimumRequests: 3, errorRateThreshold: 0.5, cooldownMs: 60_000, maxCooldownMs: 60_000 },
      healthCheckIntervalMs: 60_000,
    });
    flaky = await startProviderSimulator();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: harness.url, acceptDownloads: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await page.goto('/console/');
    // The sign-in page offers three roles since the account portal; the operator picks theirs.
    await page.getByRole('radio', { name: 'Operator (admin token)' }).check();
    await page.getByLabel('Admin token', { exact: true }).fill(ADMIN_TOKEN);
    await page.getByLabel('Admin token', { exact: true }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
    await flaky?.close();
  });

  test('health states: healthy, untested, failing (with the reason), circuit open and disabled', async () => {
    await harness.addChannel({ provider: 'openai', models: ['shared'], name: 'steady', priority: 0 });
    await harness.addChannel({ provider: 'openai', models: ['shared'], name: 'flaky', baseUrl: `${flaky.url}/v1`, priority: 10 });
    await harness.admin('POST', '/channels', {
      name: 'dead',
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: UPSTREAM_SECRET,
      models: ['dead-model'],
      groups: ['default'],
    });
    await harness.admin('POST', '/channels', {
      name: 'idle',
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: UPSTREAM_SECRET,
      models: ['idle-model'],
      groups: ['default'],
      enabled: false,
    });
    ({ key } = await harness.addKey({ name: 'alice', balance: 5 }));
    harness.simulator.setDefault({ text: 'steady answer' });
    flaky.setDefault({ fault: { type: 'status', status: 500 } });
    // One request fails over from flaky (500) to steady: flaky is now failing, steady healthy.
    assert.equal(await chat('shared'), 200);

    await go('Channels');
    const badge = (name: string) => page.locator(`[data-health="${name}"]`);
    await badge('steady').waitFor();
    assert.equal(await badge('steady').innerText(), 'healthy');
    assert.equal(await badge('flaky').innerText(), 'failing');
    // A 500 from a host that answered counts against the channel × model circuit, not the
    // channel's own window; the channel still reads failing, with the last error as the reason.
    assert.match(await page.locator('tr[data-channel="flaky"]').innerText(), /the last call failed .*: 500 upstream_error/);
    assert.equal(await badge('dead').innerText(), 'untested');
    assert.equal(await badge('idle').innerText(), 'disabled');

    // A failed manual test turns an untested dead channel into failing at once.
    await page.locator('tr[data-channel="dead"]').getByRole('button', { name: 'Test' }).click();
    await page.locator('[data-test-result="dead"]').waitFor();
    assert.match(await page.locator('[data-test-result="dead"]').innerText(), /Test failed/);
    const wrapped = await page.locator('[data-test-result="dead"]').evaluate((element: any) => element.scrollWidth <= element.clientWidth + 1);
    assert.ok(wrapped, 'the test result text wraps inside its box');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page
      .locator('[data-health="dead"]')
      .filter({ hasText: /^failing$/ })
      .waitFor();

    // Two more failures of flaky open its circuit (3 calls, 100 % errors).
    assert.equal(await chat('shared'), 200);
    assert.equal(await chat('shared'), 200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page
      .locator('[data-health="flaky"]')
      .filter({ hasText: /^circuit open$/ })
      .waitFor();
    assert.match(await page.locator('tr[data-channel="flaky"]').innerText(), /next probe in \d+ s/);
    await shot('11-channel-health');
  });

  test('the unpriced model that keys with a balance reach is flagged, with a way to price it', async () => {
    await go('Keys');
    const warning = page.locator('[data-unpriced]');
    await warning.waitFor();
    assert.match(await warning.innerText(), /shared[\s\S]*groups default/);
    await warning.getByRole('link', { name: 'Set price' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    const form = page.getByRole('form', { name: "Set a model's price" });
    assert.equal(await form.locator('input[name="model"]').inputValue(), 'dead-model');
  });

  test('logs: the failing channel and retries in the table, names as filters, paging past 200 rows, CSV export', async () => {
    // 230 more rows for bob, straight into the store, so paging has something to page through.
    const { id: bobId } = await harness.addKey({ name: 'bob' });
    const now = Date.now();
    await harness.gateway.store.usage.insertMany(
      Array.from({ length: 230 }, (_, index) =>
        usageRow({ requestId: `req_bulk${String(index).padStart(4, '0')}`, time: now - 60_000 - index * 10, keyId: bobId, keyName: 'bob' }),
      ),
    );
    await go('Logs');
    const rows = page.locator('table.logs tbody tr');
    await rows.first().waitFor();
    // The newest row is alice's third request: it went straight to steady (flaky's circuit opened
    // after it); the first one shows flaky's 500 then steady in the Tries column.
    const failover = page.locator('table.logs tbody tr').filter({ hasText: 'flaky' }).first();
    assert.match(await failover.locator('[data-tries]').innerText(), /^2: flaky upstream_error → steady (200|ok)$/);
    assert.equal(await failover.locator('.failed-try').count(), 1);

    await page.getByLabel('Key (name or id)').fill('bob');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page
      .locator('[data-row-count]')
      .filter({ hasText: /^200 requests shown; older ones exist$/ })
      .waitFor();
    assert.equal(await rows.count(), 200);
    await page.getByRole('button', { name: 'Load older requests' }).click();
    await page
      .locator('[data-row-count]')
      .filter({ hasText: /^230 requests shown$/ })
      .waitFor();
    const ids = await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-request')));
    assert.equal(new Set(ids).size, 230, 'no row twice');
    assert.equal(await page.getByRole('button', { name: 'Load older requests' }).count(), 0);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const csv = readFileSync(file, 'utf8').trimEnd().split('\r\n');
    assert.equal(csv.length, 231);
    assert.match(csv[0] ?? '', /^time,request_id,key,group,model,channel,attempts,attempt_chain,status,error_code,input_tokens,output_tokens/);
    assert.ok(csv.slice(1).every((line) => line.includes(',bob,')));
    await page.locator('[data-export-status]').filter({ hasText: 'Exported 230 rows.' }).waitFor();
  });

  test('the audit log lists the changes made, with before and after', async () => {
    await harness.admin('PATCH', '/channels/steady', { priority: 3 });
    await go('Audit log');
    const row = page.locator('tr[data-audit="channel.update"]').first();
    await row.waitFor();
    assert.match(await row.innerText(), /steady[\s\S]*break-glass from 127\.0\.0\.1[\s\S]*priority: 0 → 3/); // the gateway token is audited as break-glass (issue 29)
    assert.ok((await page.locator('tr[data-audit="key.create"]').count()) >= 2);
    assert.ok(!(await page.content()).includes(UPSTREAM_SECRET));
  });

  test('dark mode follows the system, the favicon is served, and at 390 px the logs table scrolls inside its frame', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
    assert.equal(background, 'rgb(11, 17, 32)');
    await shot('13-dark-mode');
    await page.emulateMedia({ colorScheme: 'light' });

    const icon = await page.evaluate<string | undefined>(`document.querySelector('link[rel="icon"]')?.getAttribute('href')`);
    assert.equal(icon, '/console/favicon.svg');
    const response = await fetch(`${harness.url}/console/favicon.svg`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /^<svg/);

    await page.setViewportSize({ width: 390, height: 844 });
    for (const label of ['Logs', 'Channels', 'Keys', 'Audit log']) {
      await go(label);
      await page.locator('table').first().waitFor();
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      const culprit =
        overflow <= 1
          ? ''
          : await page.evaluate<string>(
              `[...document.querySelectorAll('main *')].filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !element.closest('.table-wrap')).slice(0, 3).map((element) => element.tagName + '.' + element.className + ' ' + Math.round(element.getBoundingClientRect().right)).join('; ')`,
            );
      assert.ok(overflow <= 1, `${label}: no sideways scrolling of the page at 390 px (overflow ${overflow}px: ${culprit})`);
    }
    await go('Logs');
    const firstCell = page.locator('table.logs tbody tr').first().locator('td').first();
    assert.equal(await firstCell.evaluate((cell: any) => (globalThis as any).getComputedStyle(cell).position), 'sticky');
    await shot('14-logs-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

function usageRow(overrides: Partial<UsageLogEntry>): UsageLogEntry {
  return {
    requestId: 'req_x',
    time: Date.now(),
    keyId: null,
    keyName: null,
    group: 'default',
    model: 'shared',
    upstreamModel: 'shared',
    channelId: null,
    channelName: 'steady',
    clientProtocol: 'openai-chat',
    upstreamProtocol: 'openai-chat',
    surface: null,
    status: 200,
    errorCode: null,
    errorMessage: null,
    inputTokens: 3,
    outputTokens: 2,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 0,
    latencyMs: 12,
    ttftMs: null,
    stream: false,
    warnings: [],
    attempts: [],
    clientIp: '127.0.0.1',
    ...overrides,
  };
}
