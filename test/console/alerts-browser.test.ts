import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startReceiver, type Receiver } from '../notify/notify-fixture.ts';
import { followPageLink, launchChromium, screenshotDirectory, type Browser, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

const PASSWORD = 'correct horse battery staple';

/** Issue 30 in Chromium: the operator adds an alert channel and tests it, posts an announcement, and the portal home shows it. */
describe('alerts and announcements in Chromium', { timeout: 180_000 }, () => {
  let harness: Harness;
  let receiver: Receiver;
  let browser: Browser;
  let operator: Page;
  let account: Page;
  const shots = screenshotDirectory();
  const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  before(async () => {
    ensureConsoleBuilt();
    receiver = await startReceiver();
    harness = await startHarness({ notifications: { outboxPollMs: 0, scanIntervalMs: 0 } });
    await harness.admin('POST', '/users', { name: 'nora', email: 'nora@example.com', password: PASSWORD });
    browser = await launchChromium();
    const open = async (width: number) => {
      const context = await browser.newContext({ viewport: { width, height: 800 }, baseURL: harness.url });
      context.setDefaultTimeout(15_000);
      return context.newPage();
    };
    operator = await open(1280);
    account = await open(390);
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
    await receiver?.close();
  });

  test('the operator adds a webhook channel and a rule, and "Send test" reaches the receiver signed', async () => {
    await operator.goto('/console/');
    await operator.getByRole('radio', { name: 'Operator (admin token)' }).check();
    await operator.getByLabel('Admin token', { exact: true }).fill(ADMIN_TOKEN);
    await operator.getByLabel('Admin token', { exact: true }).press('Enter');
    await followPageLink(operator, 'Alerts');
    await operator.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    await operator.getByLabel('Name', { exact: true }).fill('ops hook');
    await operator.getByLabel('Address', { exact: true }).fill(`${receiver.url}/hook`);
    await operator.getByRole('button', { name: 'Add channel' }).click();
    await operator.locator('tr[data-alert-channel="ops hook"]').waitFor();
    const secret = await operator.locator('[data-generated-secret]').innerText();
    assert.match(secret, /^whsec_/);
    await operator.getByRole('button', { name: 'Add rule' }).click();
    await operator.locator('li[data-alert-rule="wallet.low"]').waitFor();
    await operator.getByRole('button', { name: 'Send test' }).click();
    await operator.getByText('Delivered', { exact: true }).waitFor();
    assert.equal(receiver.received.length, 1);
    assert.match(String(receiver.received[0]!.headers['x-switchyard-signature']), /^t=\d+,v1=[0-9a-f]{64}$/);

    // An e-mail channel for everyone holding the finance role.
    const channelForm = operator.locator('form', { has: operator.getByRole('button', { name: 'Add channel' }) });
    await channelForm.locator('select').first().selectOption('email');
    await operator.getByLabel('Name', { exact: true }).fill('finance desk');
    await operator.getByLabel('Address', { exact: true }).fill('');
    await channelForm.locator('select[data-alert-role]').selectOption('finance');
    await operator.getByRole('button', { name: 'Add channel' }).click();
    await operator.locator('tr[data-alert-channel="finance desk"]').getByText('admins: finance').waitFor();
    const channels = await harness.admin('GET', '/notification-channels');
    assert.deepEqual(channels.data.find((channel: { name: string }) => channel.name === 'finance desk')?.roles, ['finance']);
    await shot(operator, '60-operator-alerts');
  });

  test('an announcement posted in the console is on the account holder’s portal home (390 px)', async () => {
    await followPageLink(operator, 'Announcements');
    await operator.getByRole('heading', { level: 1, name: 'Announcements' }).waitFor();
    await operator.getByLabel('Title', { exact: true }).fill('Maintenance on Sunday');
    await operator.getByLabel('Message', { exact: true }).fill('The gateway restarts at 02:00 UTC for a minute.');
    await operator.getByRole('button', { name: 'Post' }).click();
    await operator.locator('li[data-announcement="Maintenance on Sunday"]').waitFor();
    await shot(operator, '61-operator-announcements');

    await account.goto('/console/');
    await account.getByLabel('Email or name', { exact: true }).fill('nora');
    await account.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await account.getByRole('button', { name: 'Sign in' }).click();
    await account.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await account.locator('[data-announcement="Maintenance on Sunday"]').waitFor();
    const overflow = await account.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.ok(overflow <= 1, `no sideways scrolling at 390 px (overflow ${overflow}px)`);
    await shot(account, '62-portal-home-announcement');
  });

  test('the status page, once turned on, renders at 390 px without sideways scrolling', async () => {
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'] });
    await harness.admin('PATCH', '/account-settings', { statusPage: { enabled: true, title: 'Example AI status' } });
    await account.goto('/status');
    await account.getByRole('heading', { level: 1, name: 'Example AI status' }).waitFor();
    await account.getByRole('cell', { name: 'gpt-4o-mini' }).waitFor();
    await shot(account, '63-status-page');
  });
});
