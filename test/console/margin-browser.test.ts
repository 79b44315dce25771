import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { followPageLink, launchChromium, type Browser, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

/** The Margin page in Chromium: revenue, cost and margin per model with a total, the served models without a price, and a CSV export whose sums are the total. */
describe('the console margin page', { timeout: 180_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureConsoleBuilt();
    harness = await startHarness();
    const channel = await harness.addChannel({ provider: 'openai', models: ['sold', 'never-priced'] });
    await harness.admin('POST', '/prices', { model: 'sold', input: 100, output: 200 });
    await harness.admin('POST', `/prices/channels/${channel.id}`, { model: 'sold', input: 50, output: 100 });
    harness.simulator.setDefault({ text: 'ok', usage: { input: 1_000, output: 50 } });
    const { key } = await harness.addKey({ name: 'buyer', balance: 10 });
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${harness.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sold', messages: [{ role: 'user', content: 'hi' }] }),
      });
      assert.equal(response.status, 200);
    }
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: harness.url, acceptDownloads: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await page.goto('/console/');
    await page.getByRole('radio', { name: 'Operator (admin token)' }).check();
    await page.getByLabel('Admin token', { exact: true }).fill(ADMIN_TOKEN);
    await page.getByLabel('Admin token', { exact: true }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('per model: revenue, cost, margin and the total; the CSV export sums to it', async () => {
    await followPageLink(page, 'Margin');
    await page.getByRole('heading', { level: 1, name: 'Margin' }).waitFor();
    // Two requests of 1,000 input and 50 output tokens: sold at $100/$200, bought at $50/$100 per M.
    const total = page.locator('[data-margin-total]');
    await total.waitFor();
    assert.match(await total.innerText(), /Total\s+2\s+\$0\.22\s+\$0\.11\s+\$0\.11/);
    assert.match(await page.locator('[data-margin] tbody').innerText(), /sold\s+2/);
    assert.match(await page.locator('[data-unpriced-served]').innerText(), /never-priced/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await (await download.createReadStream()).toArray();
    const lines = Buffer.concat(csv).toString('utf8').trim().split('\n').slice(1);
    const column = (index: number) => lines.reduce((sum, line) => sum + Number(line.split(',')[index]), 0);
    assert.deepEqual([column(3), column(4), column(5)], [220_000, 110_000, 110_000]);
  });
});
