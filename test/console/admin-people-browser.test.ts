import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { followPageLink, launchChromium, type Browser, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

/**
 * Issue 29 in Chromium: an owner signs in by e-mail and password (no token in the tab), works
 * on the console cookie with its CSRF token, creates a support admin on the Admins page; the
 * support admin signs in by name, has no Admins page, and a change they may not make is refused.
 */
describe('named admins in the console (Chromium)', { timeout: 180_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureConsoleBuilt();
    harness = await startHarness();
    await harness.admin('POST', '/admins', { name: 'olive', email: 'olive@example.com', role: 'owner', password: 'olive-password-1' }, 201);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: harness.url });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  const signIn = async (login: string, password: string) => {
    await page.goto('/console/');
    await page.getByRole('radio', { name: 'Admin (name or e-mail + password)' }).check();
    await page.getByLabel('Name or e-mail', { exact: true }).fill(login);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  };

  test('the owner signs in by e-mail and creates a support admin on the Admins page; the audit log names her', async () => {
    await signIn('olive@example.com', 'olive-password-1');
    await page.getByText('Operator: olive (owner)').waitFor();
    const stored = await page.evaluate<string>('JSON.stringify(sessionStorage)');
    assert.ok(!stored.includes('olive-password-1'), 'no password in the tab');
    await followPageLink(page, 'Admins');
    await page.getByRole('heading', { level: 1, name: 'Admins' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('sam');
    await page.getByLabel('E-mail').fill('sam@example.com');
    await page.getByLabel('Role').selectOption('support');
    await page.getByLabel('Password', { exact: true }).fill('sam-password-12');
    await page.getByRole('button', { name: 'Create admin' }).click();
    await page.getByText('Admin sam (support) created.').waitFor();
    await page.getByRole('cell', { name: 'sam@example.com' }).waitFor();
    const audit = await harness.admin('GET', '/audit?kind=admin');
    assert.equal(audit.data[0].actor, 'olive');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('radio', { name: 'Admin (name or e-mail + password)' }).waitFor();
  });

  test('a support admin signs in by name, sees no Admins page, and is refused a group change', async () => {
    await signIn('sam', 'sam-password-12');
    await page.getByText('Operator: sam (support)').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Admins' }).count(), 0);
    const refused = await page.evaluate<number>(
      "fetch('/api/admin/groups', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': JSON.parse(sessionStorage.getItem('switchyard.session')).admin.csrf }, body: JSON.stringify({ name: 'x' }) }).then((response) => response.status)",
    );
    assert.equal(refused, 403);
  });
});
