import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { followPageLink, launchChromium, screenshotDirectory, type Browser, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * Both journeys of issue 16 in Chromium against a real gateway and the provider simulator: the
 * operator sells (group billing, a plan, a user with a top-up, a subscription code), the account
 * holder signs in, redeems, makes a key, calls through the OpenAI SDK and sees the call and the
 * reduced quota; the operator suspends the subscription and the portal explains the refusal.
 * Two browser contexts: the operator's tab and the account holder's.
 */
describe('the account portal and the operator’s business pages in Chromium', { timeout: 240_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  let operator: Page;
  let account: Page;
  let code = '';
  let secret = '';
  const shots = screenshotDirectory();
  const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const go = async (page: Page, label: string, heading = label) => {
    await followPageLink(page, label);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  };
  const noSidewaysScroll = async (page: Page, what: string) => {
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.ok(overflow <= 1, `${what}: no sideways scrolling at phone width (overflow ${overflow}px)`);
  };

  before(async () => {
    ensureConsoleBuilt();
    harness = await startHarness();
    // What the operator had before this story: a "pro" group served by one channel, with a price.
    await harness.admin('POST', '/groups', { name: 'pro', description: 'The paid tier' });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], groups: ['default', 'pro'] });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 100, output: 200 });
    browser = await launchChromium();
    const open = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: harness.url, acceptDownloads: true });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.url });
      context.setDefaultTimeout(15_000);
      return context.newPage();
    };
    operator = await open();
    account = await open();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('the operator signs in and makes the "pro" group subscription-only where groups are shown', async () => {
    await operator.goto('/console/');
    await operator.getByRole('radio', { name: 'Operator (admin token)' }).check();
    await operator.getByLabel('Admin token', { exact: true }).fill(ADMIN_TOKEN);
    await operator.getByLabel('Admin token', { exact: true }).press('Enter');
    await operator.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await go(operator, 'Groups & models');
    await operator.getByLabel('Billing mode of pro').selectOption('subscription');
    await operator.getByText('Group pro now bills by subscription.').waitFor();
    const groups = (await harness.admin('GET', '/groups')).data as Array<{ name: string; billing: string }>;
    assert.equal(groups.find((group) => group.name === 'pro')?.billing, 'subscription');
    await shot(operator, '20-operator-group-billing');
  });

  test('the operator creates a plan with a daily quota; its subscription count starts at 0', async () => {
    await go(operator, 'Plans');
    await operator.getByText('No plans yet.').waitFor();
    await operator.getByRole('button', { name: 'Create plan' }).click();
    const form = operator.getByRole('dialog', { name: 'Create a plan' });
    await form.getByLabel('Name').fill('Pro daily');
    await form.getByLabel(/^Group/).selectOption('pro');
    await form.getByLabel(/^Term/).fill('30');
    await form.getByLabel(/^Daily quota/).fill('0.25');
    await form.getByLabel(/^Quota for the whole term/).fill('5');
    await form.getByLabel(/^List price/).fill('9');
    await form.getByLabel('Description').fill('25 cents a day of gpt-4o-mini');
    await form.getByRole('button', { name: 'Create plan' }).click();
    await operator.getByText('Plan Pro daily created.').waitFor();
    const row = operator.locator('tr[data-plan="Pro daily"]');
    await row.waitFor();
    assert.match(await row.innerText(), /pro[\s\S]*30 days[\s\S]*\$0\.25 a day, \$5\.00 in total[\s\S]*\$9\.00[\s\S]*0 \/ 0/);
    await shot(operator, '21-operator-plans');
  });

  test('the operator creates a user, tops up the wallet with a note, and sees it in the audit trail', async () => {
    await go(operator, 'Users');
    await operator.getByText('No users yet.').waitFor();
    await operator.getByRole('button', { name: 'Create user' }).click();
    const form = operator.getByRole('dialog', { name: 'Create a user' });
    await form.getByLabel(/^Name/).fill('carol');
    await form.getByLabel(/^Email/).fill('carol@example.com');
    await form.getByLabel(/^Password/).fill(PASSWORD);
    await form.getByRole('button', { name: 'Create user' }).click();
    await operator.getByText('User carol created.').waitFor();
    await operator.locator('tr[data-user="carol"]').getByRole('button', { name: 'Open carol' }).click();
    const drawer = operator.getByRole('dialog', { name: 'User carol' });
    await drawer.getByLabel(/^Amount/).fill('2.5');
    await drawer.getByLabel('Note').fill('Invoice 2026-114 paid');
    await drawer.getByRole('button', { name: 'Apply' }).click();
    await drawer.getByText('Added $2.50; the wallet is now $2.50.').waitFor();
    await drawer.locator('[data-audit]').getByText('Invoice 2026-114 paid').waitFor();
    await shot(operator, '22-operator-user-detail');
    await operator.keyboard.press('Escape');
    await operator.getByLabel('Search by name or email').fill('CAROL@');
    assert.match(await operator.locator('tr[data-user="carol"] [data-wallet]').innerText(), /\$2\.50/);
    await shot(operator, '23-operator-users');
  });

  test('the operator generates a subscription code: shown once, copy-all and CSV, then listed as unused', async () => {
    await go(operator, 'Codes', 'Redemption codes');
    await operator.getByText('No codes yet.').waitFor();
    const form = operator.getByRole('form', { name: 'Generate codes' });
    await form.locator('select[name="kind"]').selectOption('subscription');
    await form.locator('select[name="plan"]').selectOption({ label: 'Pro daily' });
    await form.getByLabel('How many').fill('2');
    await form.getByRole('button', { name: 'Generate codes' }).click();
    const batch = operator.locator('[data-code-batch]');
    await batch.waitFor();
    const codes = (await batch.locator('[data-codes]').innerText()).split('\n').filter(Boolean);
    assert.equal(codes.length, 2);
    code = codes[0]!;
    await batch.getByRole('button', { name: 'Copy all' }).click();
    assert.equal(await operator.evaluate('navigator.clipboard.readText()'), codes.join('\n'));
    const [download] = await Promise.all([operator.waitForEvent('download'), batch.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    assert.equal(csv, `code,value,expires_at\n${codes[0]},plan Pro daily,\n${codes[1]},plan Pro daily,\n`);
    await shot(operator, '24-operator-codes-batch');
    await batch.getByRole('button', { name: /hide/ }).click();
    assert.equal(await operator.locator('tr[data-code-state="unused"]').count(), 2);
    assert.ok(!(await operator.content()).includes(code), 'never shown again');
  });

  test('the account holder signs in with email and password; a wrong password is refused in words', async () => {
    await account.goto('/console/');
    await shot(account, '30-portal-sign-in');
    await account.getByLabel('Email or name', { exact: true }).fill('carol@example.com');
    await account.getByLabel('Password', { exact: true }).fill('not the password');
    await account.getByLabel('Password', { exact: true }).press('Enter');
    await account.getByRole('alert').filter({ hasText: 'do not match an enabled account' }).waitFor();
    await account.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await account.getByRole('button', { name: 'Sign in' }).click();
    await account.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    assert.equal(await account.locator('[data-wallet]').innerText(), '$2.50');
    await account.getByText('You have no subscription yet.').waitFor();
    const stored = await account.evaluate<{ cookies: string }>('({ cookies: document.cookie })');
    assert.equal(stored.cookies, '', 'the session cookie is HttpOnly: scripts cannot read it');
    await shot(account, '31-portal-home-empty');
  });

  test('the account holder redeems the code and sees the subscription with its quota bars', async () => {
    await go(account, 'Redeem', 'Redeem a code');
    await account.getByLabel(/^Code/).fill('rc-not-a-real-code');
    await account.getByRole('button', { name: 'Redeem' }).click();
    await account.getByRole('alert').filter({ hasText: 'That code cannot be redeemed: This redemption code is unknown' }).waitFor();
    await account.getByLabel(/^Code/).fill(code);
    await account.getByRole('button', { name: 'Redeem' }).click();
    await account.locator('[data-redeem-result]').filter({ hasText: 'Subscription Pro daily is active until' }).waitFor();
    await shot(account, '32-portal-redeem');
    await go(account, 'Home');
    const card = account.locator('[data-subscription="Pro daily"]');
    await card.waitFor();
    assert.match(await card.locator('[data-status]').innerText(), /active/);
    assert.match(await card.locator('[data-window="Today"]').innerText(), /\$0\.00 of \$0\.25 used · \$0\.25 left[\s\S]*Resets/);
    assert.match(await card.locator('[data-window="Whole term"]').innerText(), /\$0\.00 of \$5\.00 used/);
  });

  test('the account holder creates a key in the subscription’s group and sees it once', async () => {
    await go(account, 'Keys');
    await account.getByRole('button', { name: 'Create key' }).click();
    const form = account.getByRole('dialog', { name: 'Create a key' });
    const groups = await form.getByLabel('Group').locator('option').allInnerTexts();
    assert.deepEqual(
      groups.map((text) => text.split(' — ')[0]),
      ['pro', 'default'],
      'the subscription’s group and the default group for accounts',
    );
    await form.getByLabel(/^Name/).fill('laptop');
    await form.getByLabel('Group').selectOption('pro');
    await form.getByLabel(/^Daily spend cap/).fill('1');
    await form.getByRole('button', { name: 'Create key' }).click();
    const panel = account.locator('[data-secret-panel]');
    await panel.waitFor();
    secret = await panel.locator('[data-secret]').innerText();
    assert.match(secret, /^sk-/);
    await panel.getByRole('button', { name: 'Copy key' }).click();
    assert.equal(await account.evaluate('navigator.clipboard.readText()'), secret);
    await shot(account, '33-portal-keys-secret-once');
    await panel.getByRole('button', { name: /hide/ }).click();
    assert.match(await account.locator('tr[data-key="laptop"]').innerText(), /pro[\s\S]*\$1\.00\/day[\s\S]*any address/);
    assert.ok(!(await account.content()).includes(secret));
  });

  test('a call through the OpenAI SDK shows up in Usage, and the day’s quota shrinks on Home', async () => {
    harness.simulator.enqueue({ text: 'Hello from the simulator.', usage: { input: 1000, output: 500 } });
    const client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: secret, maxRetries: 0 });
    // max_tokens covers the 500 output tokens the upstream reports (output past the cap is billed
    // at the cap, issue 23) and keeps the reservation inside the day's quota; the bill is what was used.
    const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 500, messages: [{ role: 'user', content: 'Hello' }] });
    assert.equal(reply.choices[0]?.message.content, 'Hello from the simulator.');

    await go(account, 'Usage');
    const recent = account.locator('[data-recent] tbody tr');
    await recent.first().waitFor();
    assert.match(await recent.first().innerText(), /laptop[\s\S]*gpt-4o-mini[\s\S]*200[\s\S]*1,000 \/ 500[\s\S]*\$0\.20/);
    assert.match(await account.locator('[data-by-model]').innerText(), /gpt-4o-mini\s+1\s+1,000 \/ 500\s+\$0\.20/);
    assert.ok(!(await account.content()).includes('sim-'), 'no channel names for account holders');
    await shot(account, '34-portal-usage');

    await go(account, 'Home');
    const today = account.locator('[data-subscription="Pro daily"] [data-window="Today"]');
    await today.filter({ hasText: '$0.20 of $0.25 used · $0.05 left' }).waitFor();
    await shot(account, '35-portal-home');
  });

  test('connect a client: the snippets are filled with the chosen key’s group models', async () => {
    await go(account, 'Connect a client');
    const keyChoice = account.locator('select[name="key"]');
    await keyChoice.selectOption({ index: 1 });
    assert.match(await keyChoice.locator('option:checked').innerText(), /^laptop \(pro, sk-/);
    const openai = account.locator('[data-client="openai-sdk"]');
    assert.match(await openai.innerText(), /model="gpt-4o-mini"/);
    assert.equal(await openai.locator('[data-address]').innerText(), `${harness.url}/v1`);
    await account.getByLabel('Key secret (optional, to fill in the snippets)').fill(secret);
    await openai.getByRole('button', { name: 'Copy Python' }).click();
    assert.match((await account.evaluate<string>('navigator.clipboard.readText()')) ?? '', new RegExp(`api_key="${secret}"`));
    assert.ok(!(await account.content()).includes(secret), 'masked on screen');
    await shot(account, '36-portal-connect');
  });

  test('the operator sees the subscription near its daily quota and suspends it', async () => {
    await go(operator, 'Subscriptions');
    await operator.getByLabel(/Only near/).check();
    const row = operator.locator('tr[data-subscription="carol/Pro daily"]');
    await row.waitFor();
    assert.match(await row.innerText(), /\$0\.20 of \$0\.25 used/);
    await shot(operator, '25-operator-subscriptions-near-quota');
    await row.getByRole('button', { name: 'Suspend' }).click();
    await operator.getByText(/carol: subscription suspended/).waitFor();
    await row.locator('[data-status]').filter({ hasText: 'suspended' }).waitFor();
    await go(operator, 'Plans');
    assert.match(await operator.locator('tr[data-plan="Pro daily"] [data-subscription-count]').innerText(), /0 \/ 1/);
    await go(operator, 'Codes', 'Redemption codes');
    assert.match(await operator.locator('tr[data-code-state="used"]').innerText(), /used[\s\S]*by carol/);
    await shot(operator, '26-operator-codes');
  });

  test('the account holder’s next call gets subscription_suspended, and the portal says why in their words', async () => {
    const client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: secret, maxRetries: 0 });
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'Hello again' }] }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError);
        assert.equal(error.status, 403);
        assert.equal(error.code, 'subscription_suspended');
        return true;
      },
    );
    await go(account, 'Home');
    const alert = account.getByRole('alert').filter({ hasText: 'the operator suspended this subscription' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /subscription_suspended[\s\S]*contact them/);
    await account.getByRole('button', { name: 'Check' }).click();
    const failed = account.locator('.checklist li[data-verdict="fail"]');
    await failed.first().waitFor();
    assert.match(await failed.allInnerTexts().then((texts) => texts.join('\n')), /suspend/i);
    await shot(account, '37-portal-home-suspended');
    await go(account, 'Usage');
    await account.locator('[data-recent] tbody tr').filter({ hasText: 'subscription_suspended' }).waitFor();
  });

  test('at phone width every new page reads without sideways scrolling', async () => {
    await account.setViewportSize({ width: 390, height: 844 });
    for (const [label, heading] of [
      ['Home', 'Home'],
      ['Keys', 'Keys'],
      ['Redeem', 'Redeem a code'],
      ['Usage', 'Usage'],
      ['Connect a client', 'Connect a client'],
    ] as const) {
      await go(account, label, heading);
      await account.waitForTimeout(150);
      await noSidewaysScroll(account, label);
    }
    await go(account, 'Home');
    await shot(account, '38-portal-home-phone');
    await operator.setViewportSize({ width: 390, height: 844 });
    for (const [label, heading] of [
      ['Users', 'Users'],
      ['Plans', 'Plans'],
      ['Subscriptions', 'Subscriptions'],
      ['Codes', 'Redemption codes'],
    ] as const) {
      await go(operator, label, heading);
      await operator.locator('table').first().waitFor();
      await noSidewaysScroll(operator, label);
    }
    await shot(operator, '27-operator-codes-phone');
  });

  test('signing out ends the session: the old cookie no longer opens the account API', async () => {
    await account.getByRole('button', { name: 'Sign out' }).click();
    await account.getByRole('heading', { name: 'Switchyard console' }).waitFor();
    const status = await account.evaluate<number>("fetch('/api/account', { credentials: 'same-origin' }).then((response) => response.status)");
    assert.equal(status, 401);
  });
});
