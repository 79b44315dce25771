import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;

/** A browser-like client of one API (admin or account): keeps the session cookie and CSRF token. */
function client(harness: Harness, base: '/api/admin' | '/api/account') {
  let cookie: string | undefined;
  let csrf: string | undefined;
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    if (csrf) headers['x-csrf-token'] = csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${harness.url}${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    const setCookie = response.headers.get('set-cookie');
    const json = (text === '' ? undefined : JSON.parse(text)) as Json;
    if (setCookie && path === '/session' && response.status === 200) {
      cookie = setCookie.split(';')[0];
      csrf = json.csrfToken;
    }
    return { status: response.status, text, json };
  };
  return {
    call,
    signOut: () => {
      cookie = undefined;
      csrf = undefined;
    },
  };
}

const codeAt = (secret: string, offsetSteps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offsetSteps * 30_000 });

describe('TOTP two-factor with recovery codes (issue 29)', { timeout: 60_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test('an admin enrols, confirms, then signs in with a code once (no replay) or a recovery code once; the secret is sealed at rest', async () => {
    await harness.admin('POST', '/admins', { name: 'tess', email: 'tess@example.com', role: 'admin', password: 'tess-password-1' }, 201);
    const tess = client(harness, '/api/admin');
    assert.equal((await tess.call('POST', '/session', { login: 'tess', password: 'tess-password-1' })).status, 200);
    const enrolled = await tess.call('POST', '/me/totp');
    assert.equal(enrolled.status, 200, enrolled.text);
    assert.match(enrolled.json.otpauthUrl, /^otpauth:\/\/totp\/Switchyard:tess%20\(console\)\?.*secret=/);
    assert.equal(enrolled.json.recoveryCodes.length, 10);
    const secret = enrolled.json.secret as string;
    const database = new Database(harness.databasePath, { readonly: true });
    const row = JSON.stringify(database.prepare('SELECT * FROM totp_factors').all());
    database.close();
    assert.match(row, /"secret_sealed":"v1:/);
    assert.ok(!row.includes(secret), 'the TOTP secret is not stored in clear');
    for (const code of enrolled.json.recoveryCodes) assert.ok(!row.includes(code.replace('-', '')) && !row.includes(code), 'recovery codes are stored hashed');

    // Not yet confirmed: sign-in does not ask for a code.
    assert.equal((await client(harness, '/api/admin').call('POST', '/session', { login: 'tess', password: 'tess-password-1' })).status, 200);
    assert.equal((await tess.call('POST', '/me/totp/verify', { code: '000000' === codeAt(secret) ? '111111' : '000000' })).status, 400);
    const verified = await tess.call('POST', '/me/totp/verify', { code: codeAt(secret) });
    assert.equal(verified.status, 200, verified.text);

    const fresh = client(harness, '/api/admin');
    const missing = await fresh.call('POST', '/session', { login: 'tess', password: 'tess-password-1' });
    assert.equal(missing.status, 401);
    assert.equal(missing.json.error.code, 'totp_required');
    const replayed = await fresh.call('POST', '/session', { login: 'tess', password: 'tess-password-1', totp: codeAt(secret) });
    assert.equal(replayed.status, 401, 'the code used to confirm cannot sign in again');
    assert.equal(replayed.json.error.code, 'sign_in_failed');
    const next = codeAt(secret, 1);
    assert.equal((await fresh.call('POST', '/session', { login: 'tess', password: 'tess-password-1', totp: next })).status, 200);
    assert.equal(
      (await client(harness, '/api/admin').call('POST', '/session', { login: 'tess', password: 'tess-password-1', totp: next })).status,
      401,
      'a code signs in once',
    );

    const recovery = enrolled.json.recoveryCodes[0] as string;
    assert.equal(
      (await client(harness, '/api/admin').call('POST', '/session', { login: 'tess', password: 'tess-password-1', totp: recovery.toUpperCase() })).status,
      200,
    );
    assert.equal(
      (await client(harness, '/api/admin').call('POST', '/session', { login: 'tess', password: 'tess-password-1', totp: recovery })).status,
      401,
      'a recovery code works once',
    );
    assert.equal(
      (await client(harness, '/api/admin').call('POST', '/session', { login: 'tess', password: 'wrong-password', totp: enrolled.json.recoveryCodes[1] }))
        .status,
      401,
    );
  });

  test('the owner can require TOTP of every admin: one without it may only enrol until they do', async () => {
    await harness.admin('POST', '/admins', { name: 'uma', email: 'uma@example.com', role: 'admin', password: 'uma-password-1' }, 201);
    await harness.admin('PATCH', '/sign-in-settings', { requireAdminTotp: true });
    try {
      const uma = client(harness, '/api/admin');
      assert.equal((await uma.call('POST', '/session', { login: 'uma', password: 'uma-password-1' })).status, 200);
      const refused = await uma.call('GET', '/groups');
      assert.equal(refused.status, 403);
      assert.equal(refused.json.error.code, 'totp_enrolment_required');
      assert.equal((await uma.call('GET', '/me')).status, 200);
      const enrolled = await uma.call('POST', '/me/totp');
      assert.equal((await uma.call('POST', '/me/totp/verify', { code: codeAt(enrolled.json.secret) })).status, 200);
      assert.equal((await uma.call('GET', '/groups')).status, 200);
      // Tokens and the break-glass credential are not people: the rule does not lock automation out.
      assert.ok(await harness.admin('GET', '/groups'));
    } finally {
      await harness.admin('PATCH', '/sign-in-settings', { requireAdminTotp: false });
    }
  });

  test('an account holder enrols TOTP on the portal and then needs a code to sign in', async () => {
    await harness.admin('POST', '/users', { name: 'vera', email: 'vera@example.com', password: 'vera-password-1' }, 201);
    const vera = client(harness, '/api/account');
    assert.equal((await vera.call('POST', '/session', { login: 'vera', password: 'vera-password-1' })).status, 200);
    const enrolled = await vera.call('POST', '/totp');
    assert.equal(enrolled.status, 200, enrolled.text);
    assert.equal((await vera.call('POST', '/totp/verify', { code: codeAt(enrolled.json.secret) })).status, 200);
    const again = client(harness, '/api/account');
    assert.equal((await again.call('POST', '/session', { login: 'vera', password: 'vera-password-1' })).json.error.code, 'totp_required');
    assert.equal((await again.call('POST', '/session', { login: 'vera', password: 'vera-password-1', totp: codeAt(enrolled.json.secret, 1) })).status, 200);
    assert.equal((await again.call('POST', '/totp')).status, 409, 'a confirmed factor is not replaced by a new enrolment');
  });
});
