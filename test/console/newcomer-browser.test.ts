import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { followPageLink, launchChromium, screenshotDirectory, sidewaysOverflow, type Browser, type Page } from './browser.ts';
import { chatStatus } from './chat-status.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

const PASSWORD = 'correct horse battery staple';
/** Long enough to run out of a phone-width card unless the card wraps it. */
const LONG_NAME = 'dorothea-maximiliana-vandenberghe-hohenzollern';
/** A long model name in the overview's and the portal usage's tables. */
const LONG_MODEL = 'claude-sonnet-4-5-20250929-thinking-extended-preview';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/**
 * Issue 24's console items in Chromium, against a real gateway and the provider simulator: a new
 * key lands in `default`; groups are created (with a billing mode), renamed and deleted from the
 * console; a failed channel test is not "untested" and the success column names its window;
 * google-genai's Python snippet; and every page at 390 px without sideways scrolling.
 * The circuit window is 2 s here, so "served a while ago" takes seconds, not minutes.
 */
describe('a newcomer’s console, at 1280 and 390 px', { timeout: 240_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  let operator: Page;
  let account: Page;
  const shots = screenshotDirectory();
  const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const go = async (page: Page, label: string, heading = label) => {
    // A drawer a failed step left open would cover the page list: each step starts clean.
    if (await page.locator('.drawer-backdrop').count()) await page.keyboard.press('Escape');
    await followPageLink(page, label);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  };
  const assertFits = async (page: Page, what: string) => {
    // Charts and tables size themselves after layout: give them a frame.
    await page.waitForTimeout(200);
    const { overflow, culprits } = await sidewaysOverflow(page);
    assert.ok(overflow <= 0, `${what}: the page scrolls sideways by ${overflow}px at ${page.viewportSize()?.width}px (${culprits.join(', ')})`);
  };
  /** The element is on screen horizontally: nothing of it past the window's right edge. */
  const assertOnScreen = async (page: Page, selector: string, what: string) => {
    const box = await page.locator(selector).first().boundingBox();
    assert.ok(box, `${what} is drawn`);
    const width = page.viewportSize()?.width ?? 0;
    assert.ok(box.x >= 0 && box.x + box.width <= width, `${what} is on screen (x ${Math.round(box.x)}–${Math.round(box.x + box.width)} of ${width})`);
  };

  before(async () => {
    ensureConsoleBuilt();
    harness = await startHarness({ circuit: { windowMs: 2_000 } });
    // A group that sorts before `default`: a new key must still default to `default`.
    await harness.admin('POST', '/groups', { name: 'aaa-early' }, 201);
    await harness.admin('POST', '/groups', { name: 'team' }, 201);
    await harness.addChannel({ name: 'sim-openai', provider: 'openai', models: ['gpt-4o-mini', LONG_MODEL], groups: ['default', 'aaa-early', 'team'] });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 0.15, output: 0.6 }, 201);
    await harness.admin('POST', '/users', { name: LONG_NAME, email: 'dora@example.com', password: PASSWORD, balance: 5 }, 201);
    const { key } = await harness.addKey({ name: 'dora-laptop', group: 'default', user: LONG_NAME });
    harness.simulator.enqueue({ text: 'Hello.', usage: { input: 12, output: 3 } });
    assert.equal(await chatStatus(harness.url, key, 'gpt-4o-mini'), 200);
    harness.simulator.enqueue({ text: 'Hello.', usage: { input: 12, output: 3 } });
    assert.equal(await chatStatus(harness.url, key, LONG_MODEL), 200);

    browser = await launchChromium();
    const open = async () => {
      const context = await browser.newContext({ viewport: DESKTOP, baseURL: harness.url });
      context.setDefaultTimeout(15_000);
      return context.newPage();
    };
    operator = await open();
    account = await open();
    await operator.goto('/console/');
    await operator.getByRole('radio', { name: 'Operator (admin token)' }).check();
    await operator.getByLabel('Admin token', { exact: true }).fill(ADMIN_TOKEN);
    await operator.getByLabel('Admin token', { exact: true }).press('Enter');
    await operator.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('"Create key" puts the key in the default group, though another group sorts first', async () => {
    await go(operator, 'Keys');
    await operator.getByRole('button', { name: 'Create key' }).click();
    const form = operator.getByRole('dialog', { name: 'Create a key' });
    assert.equal(await form.locator('select[name="group"]').inputValue(), 'default');
    await form.getByLabel(/^Name/).fill('newcomer');
    await form.getByRole('button', { name: 'Create key' }).click();
    await operator.locator('[data-secret-panel]').waitFor();
    const keys = (await harness.admin('GET', '/keys')).data as Array<{ name: string; group: string }>;
    assert.equal(keys.find((entry) => entry.name === 'newcomer')?.group, 'default');
    await operator.locator('[data-secret-panel]').getByRole('button', { name: /hide/ }).click();
  });

  test('groups: create one with its billing mode, rename it (its keys follow), delete it', async () => {
    await go(operator, 'Groups & models');
    await operator.getByRole('button', { name: 'New group' }).click();
    const create = operator.getByRole('dialog', { name: 'Create a group' });
    await create.getByLabel(/^Name/).fill('pro');
    await create.getByLabel(/^Description/).fill('The paid tier');
    await create.getByLabel(/^Price multiplier/).fill('1.5');
    await create.getByLabel(/^Billing mode/).selectOption('subscription');
    await create.getByRole('button', { name: 'Create group' }).click();
    await operator.getByText('Group pro created.').waitFor();
    assert.equal(await operator.getByLabel('Billing mode of pro').inputValue(), 'subscription');
    let groups = (await harness.admin('GET', '/groups')).data as Array<{ name: string; billing: string; priceMultiplier: number }>;
    assert.deepEqual(
      groups.filter((group) => group.name === 'pro').map(({ billing, priceMultiplier }) => ({ billing, priceMultiplier })),
      [{ billing: 'subscription', priceMultiplier: 1.5 }],
    );
    await harness.addKey({ name: 'pro-key', group: 'pro' });
    await shot(operator, '40-operator-groups');

    await operator.getByRole('button', { name: 'Edit or rename pro' }).click();
    const edit = operator.getByRole('dialog', { name: 'Edit group pro' });
    await edit.getByLabel(/^Name/).fill('pro-plus');
    await edit.getByRole('button', { name: 'Save group' }).click();
    await operator.getByText('Group pro renamed to pro-plus; its keys, channels and plans follow.').waitFor();
    await operator.locator('tr[data-group="pro-plus"]').waitFor();
    assert.equal(await operator.locator('tr[data-group="pro"]').count(), 0);
    const keys = (await harness.admin('GET', '/keys')).data as Array<{ name: string; group: string }>;
    assert.equal(keys.find((entry) => entry.name === 'pro-key')?.group, 'pro-plus');

    // Still used by a key: the gateway refuses, and the console says why.
    operator.once('dialog', (dialog) => void dialog.accept());
    await operator.getByRole('button', { name: 'Delete pro-plus' }).click();
    await operator.getByRole('alert').filter({ hasText: 'still used by 1 key' }).waitFor();
    await harness.admin('DELETE', '/keys/pro-key', undefined, 204);
    operator.once('dialog', (dialog) => void dialog.accept());
    await operator.getByRole('button', { name: 'Delete pro-plus' }).click();
    await operator.getByText('Group pro-plus deleted.').waitFor();
    groups = (await harness.admin('GET', '/groups')).data;
    assert.ok(!groups.some((group) => group.name.startsWith('pro')), groups.map((group) => group.name).join(', '));
    assert.equal(await operator.getByRole('button', { name: 'Delete default' }).count(), 0, 'the default group offers no delete');
  });

  test('a failed channel test counts as tested; the success column names its window and why it is empty', async () => {
    // A wrong base address (no /v1): the test gets the simulator's 404.
    await harness.addChannel({ name: 'sim-no-v1', provider: 'openai', models: ['gpt-4o-mini'], baseUrl: harness.simulator.url });
    await go(operator, 'Channels');
    const header = operator.locator('th').filter({ hasText: /^Success/ });
    assert.equal((await header.innerText()).trim(), 'Success (last 2 s)');
    const row = operator.locator('tr[data-channel="sim-no-v1"]');
    assert.match(await row.innerText(), /untested/);
    assert.match(await row.locator('[data-success="sim-no-v1"]').innerText(), /no calls in the last 2 s/);

    await row.getByRole('button', { name: 'Test' }).click();
    const result = operator.locator('[data-test-result="sim-no-v1"]');
    await result.waitFor();
    assert.match(await result.innerText(), /Test failed · status 404/);
    await row.locator('[data-health="sim-no-v1"]').filter({ hasNotText: 'untested' }).waitFor();
    assert.equal(await row.locator('[data-health="sim-no-v1"]').innerText(), 'failing');
    assert.doesNotMatch(await row.innerText(), /untested|no request, probe or test has gone through it/);
    await shot(operator, '41-operator-channel-test-failed');

    // sim-openai served a request at the start; once that is out of the window the cell says so.
    await operator.waitForTimeout(2_200);
    await operator.getByRole('button', { name: /Refresh/ }).click();
    const served = operator.locator('[data-success="sim-openai"]');
    await served.filter({ hasText: /last success/ }).waitFor();
    assert.match(await served.innerText(), /^—\s+no calls in the last 2 s; last success \d+ s ago$/);
  });

  test('connect a client: google-genai gets a Python snippet with http_options base_url', async () => {
    await go(operator, 'Connect a client');
    const genai = operator.locator('[data-client="genai-sdk"]');
    const text = await genai.innerText();
    assert.match(text, /Python \(google-genai\)/);
    assert.ok(text.includes(`genai.Client(api_key="<API_KEY>", http_options={"base_url": "${harness.url}"})`), text);
    assert.match(text, /client\.models\.generate_content\(model="/);
    await shot(operator, '42-operator-connect-genai');
  });

  test('at 1280 px the Logs filter bar keeps its buttons on one line, under the fields', async () => {
    await go(operator, 'Logs');
    const buttons = operator.getByRole('form', { name: 'Filter the logs' }).getByRole('button');
    const tops = await buttons.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `Apply, Clear and Export share one line (tops ${tops.join(', ')})`);
    const fieldTops = await operator
      .getByRole('form', { name: 'Filter the logs' })
      .locator('input')
      .evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
    // Date inputs draw a pixel or two taller: one line means within a few pixels.
    assert.ok(Math.max(...fieldTops) - Math.min(...fieldTops) <= 4, `the seven filters share one line at 1280 px (tops ${fieldTops.join(', ')})`);
    assert.ok(Math.min(...tops) > Math.max(...fieldTops), 'the buttons sit under the fields');
    await assertFits(operator, 'Logs');
    await shot(operator, '43-operator-logs-filters');
  });

  test('at 390 px the navigation folds behind a Menu button and every operator page fits the screen', async () => {
    await operator.setViewportSize(PHONE);
    await operator.reload();
    await operator.getByRole('heading', { level: 1 }).first().waitFor();
    const nav = operator.getByRole('navigation', { name: 'Pages' });
    assert.equal(await nav.isVisible(), false, 'the page list is folded');
    const toggle = operator.getByRole('button', { name: /Menu/ });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    const headingTop = (await operator.getByRole('heading', { level: 1 }).first().boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    assert.ok(headingTop < PHONE.height / 4, `the page starts in the first quarter of the screen (heading at ${Math.round(headingTop)}px)`);
    await toggle.click();
    assert.equal(await nav.isVisible(), true);
    await shot(operator, '44-operator-menu-phone');
    await nav.getByRole('link', { name: 'Overview', exact: true }).click();
    await operator.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    assert.equal(await nav.isVisible(), false, 'following a link folds the menu again');

    const pages: Array<[string, string]> = [
      ['Overview', 'Overview'],
      ['Groups & models', 'Groups & models'],
      ['Channels', 'Channels'],
      ['Keys', 'Keys'],
      ['Users', 'Users'],
      ['Plans', 'Plans'],
      ['Subscriptions', 'Subscriptions'],
      ['Codes', 'Redemption codes'],
      ['Logs', 'Logs'],
      ['Connect a client', 'Connect a client'],
      ['Model check', 'Model check'],
      ['Pricing', 'Pricing'],
      ['Audit log', 'Audit log'],
    ];
    for (const [label, heading] of pages) {
      await go(operator, label, heading);
      await assertFits(operator, label);
      if (label === 'Overview') {
        await operator.getByLabel(/^Range/).selectOption('1h');
        await operator.locator('[data-chart="Requests and errors"] canvas').waitFor();
        await assertFits(operator, 'Overview with its charts');
        await shot(operator, '45-operator-overview-phone');
      }
      if (label === 'Groups & models') {
        // Three groups serve gpt-4o-mini: the third one's cell is on screen, not past its edge.
        await assertOnScreen(operator, '[data-cell="team/gpt-4o-mini"]', 'the matrix cell of the third group');
        await shot(operator, '46-operator-matrix-phone');
      }
      if (label === 'Channels') {
        for (const name of ['sim-openai', 'sim-no-v1']) {
          await assertOnScreen(operator, `[data-health="${name}"]`, `${name}'s state`);
          await assertOnScreen(operator, `tr[data-channel="${name}"] button:has-text("Test")`, `${name}'s Test button`);
          await assertOnScreen(operator, `tr[data-channel="${name}"] button:has-text("Delete")`, `${name}'s Delete button`);
        }
        await shot(operator, '47-operator-channels-phone');
      }
      if (label === 'Logs') await shot(operator, '48-operator-logs-phone');
    }
    await operator.setViewportSize(DESKTOP);
  });

  test('at 390 px every portal page fits, and the account’s name stays inside its card', async () => {
    await account.setViewportSize(PHONE);
    await account.goto('/console/');
    await account.getByLabel('Email or name', { exact: true }).fill('dora@example.com');
    await account.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await account.getByRole('button', { name: 'Sign in' }).click();
    await account.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    const card = account.locator('.stat.card').filter({ hasText: LONG_NAME });
    await card.waitFor();
    const [cardBox, nameBox] = await Promise.all([card.boundingBox(), card.locator('dd').boundingBox()]);
    assert.ok(cardBox && nameBox, 'the name card is drawn');
    const nameRight = await card.locator('dd').evaluate((element) => element.getBoundingClientRect().left + element.scrollWidth);
    assert.ok(nameRight <= cardBox.x + cardBox.width, `the name ends inside its card (${Math.round(nameRight)} > ${Math.round(cardBox.x + cardBox.width)})`);
    await assertFits(account, 'Home');
    await shot(account, '50-portal-home-phone');
    for (const [label, heading] of [
      ['Keys', 'Keys'],
      ['Redeem', 'Redeem a code'],
      ['Usage', 'Usage'],
      ['Connect a client', 'Connect a client'],
    ] as const) {
      await go(account, label, heading);
      if (label === 'Usage') await account.locator('[data-by-model]').waitFor();
      await assertFits(account, label);
      if (label === 'Usage') await shot(account, '51-portal-usage-phone');
    }
    await account.setViewportSize(DESKTOP);
    await go(account, 'Usage');
    await account.locator('[data-by-model]').waitFor();
    await assertFits(account, 'Usage at 1280 px');
    await shot(account, '52-portal-usage');
  });
});
