import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { followPageLink, launchChromium, type Browser, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

const PASSWORD = 'rosa-password-1';

/**
 * Issue 29's Security page in Chromium: an account holder signed in from two browsers sees both
 * sessions (this one marked), signs the other out (its cookie then gets 401), turns on TOTP with
 * a code computed here from the secret the page shows once, and the next password sign-in asks
 * for a code (a recovery code from the same page passes it); a named admin gets the same cards.
 */
describe('sessions and two-factor sign-in on the Security page (Chromium)', { timeout: 180_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  let here: Page;
  let elsewhere: Page;
  let recoveryCode = '';

  const signIn = async (page: Page) => {
    await page.goto('/console/');
    await page.getByLabel('Email or name', { exact: true }).fill('rosa');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password', { exact: true }).press('Enter');
  };
  const status = (page: Page) => page.evaluate<number>("fetch('/api/account', { credentials: 'same-origin' }).then((response) => response.status)");

  before(async () => {
    ensureConsoleBuilt();
    harness = await startHarness();
    await harness.admin('POST', '/users', { name: 'rosa', email: 'rosa@example.com', password: PASSWORD }, 201);
    await harness.admin('POST', '/admins', { name: 'otto', email: 'otto@example.com', role: 'admin', password: 'otto-password-1' }, 201);
    browser = await launchChromium();
    const open = async (userAgent?: string) => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        baseURL: harness.url,
        locale: 'en-US',
        ...(userAgent ? { userAgent } : {}),
      });
      context.setDefaultTimeout(20_000);
      return context.newPage();
    };
    here = await open();
    elsewhere = await open('SecondBrowser/1.0 (test)');
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('the account holder sees both sessions and signs the other browser out', async () => {
    await signIn(elsewhere);
    await elsewhere.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await signIn(here);
    await here.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await followPageLink(here, 'Security');
    await here.getByRole('heading', { level: 2, name: 'Sessions' }).waitFor();
    const rows = here.locator('table.sessions tbody tr');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    const other = rows.filter({ hasText: 'SecondBrowser/1.0' });
    assert.equal(await other.count(), 1, 'the other browser is named by its User-Agent');
    assert.equal(await rows.filter({ hasText: 'this device' }).count(), 1);
    assert.equal(await other.filter({ hasText: 'this device' }).count(), 0);
    assert.equal(await status(elsewhere), 200);

    await other.getByRole('button', { name: 'Sign out', exact: true }).click();
    await here.getByText('That session is signed out.').waitFor();
    await rows.filter({ hasText: 'SecondBrowser/1.0' }).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    assert.equal(await status(elsewhere), 401, 'the revoked session’s cookie no longer signs anything in');
    assert.equal(await status(here), 200);
  });

  test('the account holder turns on TOTP; the next password sign-in asks for a code', async () => {
    await here.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const secret = (await here.getByTestId('totp-secret').textContent()) ?? '';
    assert.match(await here.getByTestId('otpauth-url').innerText(), /^otpauth:\/\/totp\//);
    const codes = await here.locator('ul.recovery-codes li').allInnerTexts();
    assert.ok(codes.length >= 5, `recovery codes shown once (${codes.length})`);
    recoveryCode = codes[0]!.trim();
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    await here.getByLabel('Code from your authenticator app').fill(code);
    await here.getByRole('button', { name: 'Confirm and turn on' }).click();
    await here.getByText('Two-factor sign-in is on: signing in with your password now asks for a code.').waitFor();
    await here.getByText('Two-factor sign-in is on. To turn it off, type a current code from your app.').waitFor();
    assert.equal(await here.getByTestId('totp-secret').count(), 0, 'the secret is not shown again');

    await here.getByRole('button', { name: 'Sign out', exact: true }).click();
    await signIn(here);
    await here.getByText('Two-factor sign-in is on for this account').waitFor();
    await here.getByLabel('Two-factor code').fill(recoveryCode);
    await here.getByLabel('Two-factor code').press('Enter');
    await here.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await here.getByText('Account: rosa').waitFor();
  });

  test('a named admin sees their console session and enrols TOTP on the same page', async () => {
    await here.getByRole('button', { name: 'Sign out', exact: true }).click();
    const signInOtto = async () => {
      await here.getByRole('radio', { name: 'Admin (name or e-mail + password)' }).check();
      await here.getByLabel('Name or e-mail', { exact: true }).fill('otto');
      await here.getByLabel('Password', { exact: true }).fill('otto-password-1');
      await here.getByLabel('Password', { exact: true }).press('Enter');
    };
    await signInOtto();
    await here.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await followPageLink(here, 'Security');
    const rows = here.locator('table.sessions tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    assert.equal(await rows.filter({ hasText: 'this device' }).count(), 1);

    await here.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const secret = (await here.getByTestId('totp-secret').textContent()) ?? '';
    const recovery = (await here.locator('ul.recovery-codes li').first().innerText()).trim();
    await here.getByLabel('Code from your authenticator app').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await here.getByRole('button', { name: 'Confirm and turn on' }).click();
    await here.getByText('Two-factor sign-in is on. To turn it off, type a current code from your app.').waitFor();

    await here.getByRole('button', { name: 'Sign out', exact: true }).click();
    await signInOtto();
    await here.getByText('Two-factor sign-in is on for this account').waitFor();
    await here.getByLabel('Two-factor code').fill(recovery);
    await here.getByLabel('Two-factor code').press('Enter');
    await here.getByText('Operator: otto (admin)').waitFor();
  });
});
