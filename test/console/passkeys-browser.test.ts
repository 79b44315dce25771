import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { followPageLink, launchChromium, type Browser, type CDPSession, type Page } from './browser.ts';
import { ensureConsoleBuilt } from './ensure-console-built.ts';

/** A free loopback port: the gateway's PUBLIC_URL must name it before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One raw ceremony in the page (navigator.credentials.get), its answer posted twice: the statuses. */
const REPLAY_IN_PAGE = `(async () => {
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const options = await fetch('/api/account/passkey-session/options', { method: 'POST', credentials: 'same-origin' }).then((r) => r.json());
  const credential = await navigator.credentials.get({ publicKey: { challenge: bytes(options.challenge), rpId: options.rpId, userVerification: 'required', timeout: 60000 } });
  const r = credential.response;
  const response = { id: credential.id, rawId: text(credential.rawId), type: 'public-key', clientExtensionResults: {},
    response: { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : undefined } };
  const send = () => fetch('/api/account/passkey-session', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response }) }).then((r) => r.status);
  return [await send(), await send()];
})()`;

/**
 * Issue 29 in Chromium with its virtual authenticator (DevTools protocol `WebAuthn`): an account
 * holder and an admin each add a passkey on their Security page and sign in with it, no
 * password typed; the e-mailed reset link's page sets a new password once, in both languages.
 * The relying party is `localhost` (WebAuthn refuses IP addresses), so PUBLIC_URL names it.
 */
describe('passkeys and the reset-password page in the console (Chromium)', { timeout: 240_000 }, () => {
  let harness: Harness;
  let browser: Browser;
  let page: Page;
  let publicUrl: string;
  let devtools: CDPSession;
  let authenticatorId: string;

  before(async () => {
    ensureConsoleBuilt();
    const port = await freePort();
    publicUrl = `http://localhost:${port}`;
    harness = await startHarness({ port, publicUrl });
    await harness.admin('POST', '/users', { name: 'rosa', email: 'rosa@example.com', password: 'rosa-password-1' }, 201);
    await harness.admin('POST', '/admins', { name: 'otto', email: 'otto@example.com', role: 'admin', password: 'otto-password-1' }, 201);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: publicUrl, locale: 'en-US' });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    devtools = await context.newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    ({ authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  const addPasskey = async (name: string) => {
    await followPageLink(page, 'Security');
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    await page.getByText('You have no passkeys yet.').waitFor();
    await page.getByLabel('Name of the new passkey (optional)').fill(name);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText(`Passkey “${name}” added.`).waitFor();
    await page.getByRole('cell', { name }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
  };

  test('an account holder adds a passkey on the Security page and signs in with it', async () => {
    await page.goto('/console/');
    await page.getByLabel('Email or name', { exact: true }).fill('rosa');
    await page.getByLabel('Password', { exact: true }).fill('rosa-password-1');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await addPasskey('chromium');

    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByText('Account: rosa').waitFor();
    const rows = (await harness.admin('GET', '/users/rosa/sessions')).data;
    assert.equal(rows.length, 1, 'the password session ended at sign-out; this one the passkey opened');
    const passkeys = (await page.evaluate<string>(
      "fetch('/api/account/passkeys', { credentials: 'same-origin' }).then((response) => response.text())",
    )) as string;
    assert.match(passkeys, /"lastUsedAt":"20/);
    assert.deepEqual(await page.evaluate<number[]>(REPLAY_IN_PAGE), [200, 401], 'Chromium’s own assertion, sent twice: the second finds its challenge spent');
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  test('an admin adds a passkey and signs in to the console with it', async () => {
    // Otto signs in on his own device: with rosa's passkey still in this authenticator, Chromium may
    // offer hers for the discoverable sign-in, which the console rightly refuses as not registered.
    await devtools.send('WebAuthn.clearCredentials', { authenticatorId });
    await page.getByRole('radio', { name: 'Admin (name or e-mail + password)' }).check();
    await page.getByLabel('Name or e-mail', { exact: true }).fill('otto');
    await page.getByLabel('Password', { exact: true }).fill('otto-password-1');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await addPasskey('otto laptop');

    await page.getByRole('radio', { name: 'Admin (name or e-mail + password)' }).check();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByText('Operator: otto (admin)').waitFor();
    const listed = await harness.admin('GET', '/admins/otto/passkeys');
    assert.equal(listed.data[0].name, 'otto laptop');
    assert.notEqual(listed.data[0].lastUsedAt, null);
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  test('the reset-password page sets a new password once; the Chinese page reads in Chinese', async () => {
    const token = randomBytes(32).toString('base64url');
    const user = await harness.admin('GET', '/users/rosa');
    const database = new Database(harness.databasePath);
    database
      .prepare('INSERT INTO one_time_tokens (token_hash, purpose, email, payload, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?, NULL)')
      .run(
        createHash('sha256').update(token).digest('hex'),
        'password-reset',
        'rosa@example.com',
        JSON.stringify({ userId: user.id }),
        Date.now(),
        Date.now() + 3_600_000,
      );
    database.close();

    await page.goto(`/console/reset-password?token=${token}`);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('rosa-new-password');
    await page.getByLabel('New password again').fill('rosa-other');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    await page.getByLabel('New password again').fill('rosa-new-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor();
    const signIn = await fetch(`${harness.url}/api/account/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'rosa', password: 'rosa-new-password' }),
    });
    assert.equal(signIn.status, 200);

    const chinese = await browser.newContext({ baseURL: publicUrl, locale: 'zh-CN' });
    const zhPage = await chinese.newPage();
    await zhPage.goto(`/console/reset-password?token=${token}`);
    await zhPage.getByRole('heading', { level: 1, name: '设置新密码' }).waitFor();
    await zhPage.getByLabel('新密码', { exact: true }).fill('rosa-third-password');
    await zhPage.getByLabel('再次输入新密码').fill('rosa-third-password');
    await zhPage.getByRole('button', { name: '修改密码' }).click();
    await zhPage.getByText('此链接已使用或已过期').waitFor();
    await zhPage.goto('/console/reset-password');
    await zhPage.getByText('此链接缺少令牌').waitFor();
    await chinese.close();
  });
});
