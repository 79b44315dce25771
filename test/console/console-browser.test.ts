import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startHarness, UPSTREAM_SECRET, type Harness } from '../helpers/gateway-harness.ts';
import { followPageLink, launchChromium, screenshotDirectory, type Browser, type Page } from './browser.ts';
import { chatStatus } from './chat-status.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

/**
 * The console in a real browser against a real gateway and the provider simulator: the
 * operator's day-to-day path, then a key holder's. Steps run in order and share state.
 */
describe('the console in Chromium', { timeout: 120_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  let page: Page;
  let secret = '';
  const shots = screenshotDirectory();
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const go = async (label: string) => {
    await followPageLink(page, label);
    await page.getByRole('heading', { level: 1, name: label === 'My key' ? 'My key' : label }).waitFor();
  };

  before(async () => {
    ensureConsoleBuilt();
    harness = await startHarness();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: harness.url });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.url });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('a browser opening the root lands on the sign-in page; the admin token signs in with the keyboard', async () => {
    await page.goto('/');
    assert.equal(new URL(page.url()).pathname, '/console/');
    await page.getByRole('heading', { name: 'Switchyard console' }).waitFor();
    await shot('01-sign-in');
    await page.getByRole('radio', { name: 'Operator (admin token)' }).check();
    await page.getByLabel('Admin token', { exact: true }).fill('wrong-token');
    await page.getByLabel('Admin token', { exact: true }).press('Enter');
    await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
    await page.getByLabel('Admin token', { exact: true }).fill(ADMIN_TOKEN);
    await page.getByLabel('Admin token', { exact: true }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const stored = await page.evaluate('({ cookies: document.cookie, local: localStorage.length })');
    assert.deepEqual(stored, { cookies: '', local: 0 }, 'the token lives in session storage only');
  });

  test('the matrix says no model is served before any channel exists', async () => {
    await go('Groups & models');
    await page.getByText('No channel serves any model yet').waitFor();
  });

  test('the operator creates a channel pointing at the simulator', async () => {
    await go('Channels');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('dialog', { name: 'Add a channel' });
    await form.getByLabel(startsWith('Name')).fill('sim-openai');
    await form.getByLabel(startsWith('Provider')).selectOption('openai');
    await form.getByLabel(startsWith('Base address')).fill(`${harness.simulator.url}/v1`);
    await form.getByLabel(startsWith('Upstream API key')).fill(UPSTREAM_SECRET);
    await form.getByLabel(startsWith('Models')).fill('gpt-4o-mini');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await page.getByText('Channel created.').waitFor();
    const row = page.locator('tr[data-channel="sim-openai"]');
    await row.waitFor();
    assert.match(await row.innerText(), /gpt-4o-mini/);
    assert.ok(!(await page.content()).includes(UPSTREAM_SECRET), 'the upstream secret is never shown');
  });

  test('the operator creates a key and sees its secret once, with a working copy button', async () => {
    await go('Keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const form = page.getByRole('dialog', { name: 'Create a key' });
    await form.getByLabel(startsWith('Name')).fill('alice');
    await form.getByRole('button', { name: 'Create key' }).click();
    const panel = page.locator('[data-secret-panel]');
    await panel.waitFor();
    secret = await panel.locator('[data-secret]').innerText();
    assert.match(secret, /^sk-[A-Za-z0-9]{48}$/);
    await shot('04-keys-secret-once');
    await panel.getByRole('button', { name: 'Copy key' }).click();
    await panel.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);

    await panel.getByRole('button', { name: /hide/ }).click();
    assert.ok(!(await page.content()).includes(secret), 'hidden after dismissal');
    await page.reload();
    await page.locator('tr[data-key="alice"]').waitFor();
    assert.ok(!(await page.content()).includes(secret), 'never shown again');
    await shot('05-keys');
  });

  test('the group × model matrix shows the model available in the default group', async () => {
    await go('Groups & models');
    const cell = page.locator('[data-cell="default/gpt-4o-mini"]');
    await cell.waitFor();
    assert.match(await cell.innerText(), /available 1\/1/);
    assert.match(await cell.innerText(), /sim-openai/);
    await shot('03-groups-and-models');
  });

  test('the channel test runs and reports its result inline', async () => {
    await go('Channels');
    await page.locator('tr[data-channel="sim-openai"]').getByRole('button', { name: 'Test' }).click();
    const result = page.locator('[data-test-result="sim-openai"]');
    await result.waitFor();
    assert.match(await result.innerText(), /Test passed · status 200/);
    await shot('02-channels');
  });

  test('requests through the gateway show up in the logs, with the retry chain in the detail drawer', async () => {
    harness.simulator.enqueue({ text: 'Hello from the simulator.', usage: { input: 21, output: 5 } });
    const ok = await chatStatus(harness.url, secret, 'gpt-4o-mini');
    assert.equal(ok, 200);
    assert.equal(await chatStatus(harness.url, secret, 'gpt-4o-mini '), 404, 'a trailing space is a different, unknown model');

    await go('Logs');
    const rows = page.locator('table.logs tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 2);
    const success = page.locator('table.logs tbody tr').filter({ hasText: 'sim-openai' });
    assert.match(await success.innerText(), /alice[\s\S]*gpt-4o-mini[\s\S]*200[\s\S]*21 \/ 5/);
    await success.getByRole('button', { name: /Details/ }).click();
    const drawer = page.getByRole('dialog');
    await drawer.locator('[data-attempts]').waitFor();
    assert.match(await drawer.locator('[data-attempts]').innerText(), /sim-openai — status 200/);
    await shot('06-logs-detail');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    await page.getByLabel(startsWith('Status')).fill('404');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator('table.logs tbody tr').filter({ hasText: 'sim-openai' }).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().innerText(), /404/);
    await shot('06-logs');
  });

  test('the overview counts both requests and draws them in the charts', async () => {
    await go('Overview');
    await page.getByLabel(startsWith('Range')).selectOption('1h');
    const requests = page.locator('.stat').filter({ hasText: 'Requests' });
    await requests.locator('dd').filter({ hasText: /^2$/ }).waitFor();
    assert.equal(await requests.locator('dd').innerText(), '2');
    const chart = page.locator('[data-chart="Requests and errors"] canvas');
    await chart.waitFor();
    // The chart sizes itself to its frame after layout: wait for that (the default timeout bounds it).
    await page
      .waitForFunction(`(document.querySelector('[data-chart="Requests and errors"] canvas')?.getBoundingClientRect().width ?? 0) > 200`)
      .catch(() => undefined);
    assert.ok(((await chart.boundingBox())?.width ?? 0) > 200, 'the chart is drawn at a readable width');
    const topModels = await page.locator('.card').filter({ hasText: 'Top models' }).innerText();
    assert.match(topModels, /gpt-4o-mini\s+1\s+0/);
    assert.match(topModels, /"gpt-4o-mini " \(extra spaces\)\s+1\s+1/, 'the trailing space is visible');
    assert.match(await page.locator('.stat').filter({ hasText: 'Open streams' }).innerText(), /Open streams\s+0/);
    await shot('00-overview');
  });

  test('connect a client: copy-ready set-up for each client kind, and "test this" runs the model check', async () => {
    await go('Connect a client');
    await page.getByLabel(startsWith('Key secret (optional, for live tests)')).fill(secret);
    const openai = page.locator('[data-client="openai-sdk"]');
    assert.equal(await openai.locator('[data-address]').innerText(), `${harness.url}/v1`);
    assert.equal(await page.locator('[data-client="gemini-http"] [data-address]').innerText(), `${harness.url}/v1beta`);
    assert.equal(await page.locator('[data-client="claude-code"] [data-address]').innerText(), harness.url);
    assert.match(await page.locator('[data-client="codex"]').innerText(), /wire_api = "responses"/);
    assert.match(await page.locator('[data-client="gemini-cli"]').innerText(), /"selectedType": "gemini-api-key"/);
    assert.ok(!(await page.content()).includes(secret), 'the key is masked on screen');
    await openai.getByRole('button', { name: 'Test this' }).click();
    await openai.locator('.checklist').waitFor();
    const verdicts = await openai.locator('.checklist li').evaluateAll((items) => items.map((item) => item.getAttribute('data-verdict')));
    assert.deepEqual(verdicts, ['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    await shot('07-connect');
  });

  test('the model check points at a trailing space in the model name', async () => {
    await go('Model check');
    await page.getByLabel(startsWith('Model')).fill('gpt-4o-mini ');
    await page.getByRole('button', { name: 'Run the check' }).click();
    const spelling = page.locator('.checklist li').nth(2);
    await spelling.waitFor();
    assert.equal(await spelling.getAttribute('data-verdict'), 'fail');
    // The gateway's own check (GET /api/admin/keys/:id/diagnose), the same words every surface gets.
    assert.match(await spelling.innerText(), /Did you mean "gpt-4o-mini"\? The name has a trailing space\./);
    await shot('08-model-check');
  });

  test('pricing: the operator sets a model price and sees it listed', async () => {
    await go('Pricing');
    const form = page.getByRole('form', { name: "Set a model's price" });
    await form.getByLabel(startsWith('Model')).fill('gpt-4o-mini');
    await form.getByLabel(startsWith('Input')).fill('0.15');
    await form.getByLabel(startsWith('Output')).fill('0.6');
    await form.getByRole('button', { name: 'Save price' }).click();
    await page.getByText('Price for gpt-4o-mini saved.').waitFor();
    // The list reloads after the confirmation appears: wait for the row itself.
    const row = page.locator('tr').filter({ hasText: 'gpt-4o-mini' });
    await row.waitFor();
    assert.match(await row.innerText(), /gpt-4o-mini\s+\$0\.15\s+\$0\.60/);
    await shot('09-pricing');
  });

  test('at phone width the overview still reads', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await go('Overview');
    await page.locator('[data-chart="Requests and errors"] canvas').waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.ok(overflow <= 1, `no sideways scrolling at phone width (overflow ${overflow}px)`);
    await shot('10-overview-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('a key holder signs in with their key and sees only their group, read-only', async () => {
    await harness.admin('POST', '/groups', { name: 'premium' });
    await harness.addChannel({ provider: 'anthropic', models: ['claude-premium'], groups: ['premium'] });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('radio', { name: 'Key holder (your API key)' }).check();
    await page.getByLabel('API key', { exact: true }).fill(secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'My key' }).waitFor();
    const models = page.locator('[data-models]');
    await models.waitFor();
    assert.equal(await models.innerText(), 'gpt-4o-mini');
    const nav = await page.getByRole('navigation', { name: 'Pages' }).innerText();
    assert.doesNotMatch(nav, /Channels|Keys|Logs/, 'no operator pages');
    assert.ok(!(await page.content()).includes('claude-premium'), "another group's model is never shown");
    await shot('11-key-holder');

    await go('Connect a client');
    assert.equal(await page.locator('[data-client="openai-sdk"] [data-address]').innerText(), `${harness.url}/v1`);
    assert.ok(!(await page.content()).includes(secret), 'the key is masked on screen');
    await page.locator('[data-client="claude-code"]').getByRole('button', { name: 'Test this' }).click();
    await page.locator('[data-client="claude-code"] .checklist').waitFor();
    const verdicts = await page
      .locator('[data-client="claude-code"] .checklist li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-verdict')));
    assert.deepEqual(verdicts, ['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    await shot('12-key-holder-connect');
  });

  test('a key holder whose key has expired can still sign in and is told why requests fail', async () => {
    const { key } = await harness.addKey({ name: 'expired', expiresAt: '2020-01-01T00:00:00Z' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('radio', { name: 'Key holder (your API key)' }).check();
    await page.getByLabel('API key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'My key' }).waitFor();
    await page
      .getByRole('alert')
      .filter({ hasText: /expired/i })
      .waitFor();
  });
});

/** Labels carry hints after their name, so match the name at the start. */
function startsWith(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}
