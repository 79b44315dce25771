import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { createRuntime } from '../../src/core/create-runtime.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

type Json = Record<string, any>;
interface Received {
  to: string;
  raw: string;
}

const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-password-123';
const CAPTCHA_SECRET = 'captcha-secret-0x1';

/** A real SMTP server that refuses what a real one refuses: no AUTH, or a wrong password, sends nothing. */
async function startSmtp(): Promise<{ port: number; inbox: Received[]; close(): Promise<void> }> {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((entry) => entry.address).join(','), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, inbox, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A siteverify simulator: `success` only for the right secret and a token it issued, each token once. */
async function startCaptcha(): Promise<{ url: string; issue(): string; server: Server }> {
  const issued = new Set<string>();
  let count = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const form = new URLSearchParams(body);
      const ok =
        request.method === 'POST' &&
        request.headers['content-type'] === 'application/x-www-form-urlencoded' &&
        form.get('secret') === CAPTCHA_SECRET &&
        issued.delete(form.get('response') ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/siteverify`,
    issue: () => {
      const token = `solved-${++count}`;
      issued.add(token);
      return token;
    },
    server,
  };
}

describe('self sign-up, e-mail verification and password reset over a real SMTP server (issue 29)', { timeout: 90_000 }, () => {
  let harness: Harness;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let captcha: Awaited<ReturnType<typeof startCaptcha>>;
  let skewMs = 0;
  const base = createRuntime();

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${harness.url}/api/account${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Json };
  };
  /** The link in the newest mail to `to`, pointed at the test gateway instead of PUBLIC_URL. */
  const linkFor = async (to: string) => {
    for (let i = 0; i < 50 && !smtp.inbox.some((mail) => mail.to === to); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const mail = smtp.inbox.filter((entry) => entry.to === to).at(-1);
    assert.ok(mail, `a mail to ${to}`);
    const link = mail.raw.replace(/=\r\n/g, '').match(/https:\/\/gateway\.test(\/[^\s]+)/)?.[1];
    assert.ok(link, mail.raw);
    return link.replace(/=3D/g, '=');
  };
  const signIn = (login: string, password: string) => post('/session', { login, password });
  /** Every test starts in a fresh throttle window (all requests come from 127.0.0.1). */
  let windowBase = 0;
  const freshWindow = () => {
    windowBase += 2 * 3_600_000;
    skewMs = windowBase;
  };

  before(async () => {
    smtp = await startSmtp();
    captcha = await startCaptcha();
    harness = await startHarness({ publicUrl: 'https://gateway.test', runtime: { ...base, now: () => Date.now() + skewMs } });
    await harness.admin('PATCH', '/smtp', {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: SMTP_USER,
      password: SMTP_PASSWORD,
      from: 'Switchyard <noreply@gateway.test>',
    });
  });
  after(async () => {
    await harness.close();
    await smtp.close();
    captcha.server.close();
  });

  test('sign-up is off by default; the SMTP password is never shown back', async () => {
    const closed = await post('/sign-up', { email: 'early@example.com', password: 'early-password' });
    assert.equal(closed.status, 403);
    assert.equal(closed.json.error.code, 'sign_in_method_disabled');
    const shown = JSON.stringify(await harness.admin('GET', '/smtp'));
    assert.ok(!shown.includes(SMTP_PASSWORD));
    assert.match(shown, /"passwordSet":true/);
  });

  test('a sign-up is verified by its e-mailed link once; the account gets no credit; the link expires', async () => {
    freshWindow();
    await harness.admin('PATCH', '/account-settings', { signUp: { enabled: true, emailDomains: ['example.com'] } });
    assert.equal((await post('/sign-up', { email: 'mallory@elsewhere.org', password: 'mallory-password' })).status, 400, 'a domain off the allow-list');
    const accepted = await post('/sign-up', { email: 'Nora@Example.com', password: 'nora-password-1', referralCode: 'FRIEND1' });
    assert.equal(accepted.status, 202);
    assert.equal((await signIn('nora@example.com', 'nora-password-1')).status, 401, 'no account before the link is followed');
    const link = await linkFor('nora@example.com');
    assert.match(link, /^\/api\/account\/verify\?token=/);
    const verified = await fetch(`${harness.url}${link}`);
    assert.equal(verified.status, 200, await verified.clone().text());
    assert.equal((await fetch(`${harness.url}${link}`)).status, 400, 'a link works once');
    const session = await signIn('nora@example.com', 'nora-password-1');
    assert.equal(session.status, 200);
    assert.equal(session.json.user.balance, 0, 'no free credit unless the operator sets one');

    assert.equal((await post('/sign-up', { email: 'olga@example.com', password: 'olga-password-1' })).status, 202);
    const late = await linkFor('olga@example.com');
    skewMs = windowBase + 25 * 3_600_000;
    try {
      const expired = await fetch(`${harness.url}${late}`);
      assert.equal(expired.status, 400, 'a link expires after 24 hours');
      assert.equal(((await expired.json()) as Json).error.code, 'link_invalid');
    } finally {
      skewMs = windowBase;
    }
  });

  test('a password reset link sets a new password once, ends the sessions, and expires after an hour', async () => {
    freshWindow();
    const before = await signIn('nora@example.com', 'nora-password-1');
    const cookie =
      before.json &&
      (
        await fetch(`${harness.url}/api/account/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: 'nora@example.com', password: 'nora-password-1' }),
        })
      ).headers
        .get('set-cookie')
        ?.split(';')[0];
    assert.equal((await post('/password-reset', { email: 'nobody@example.com' })).status, 202, 'the same answer for an unknown address');
    assert.equal((await post('/password-reset', { email: 'nora@example.com' })).status, 202);
    const link = await linkFor('nora@example.com');
    const token = new URL(`https://x${link}`).searchParams.get('token');
    const confirmed = await post('/password-reset/confirm', { token, password: 'nora-password-2' });
    assert.equal(confirmed.status, 200);
    assert.equal((await post('/password-reset/confirm', { token, password: 'nora-password-3' })).status, 400, 'a reset link works once');
    assert.equal((await signIn('nora@example.com', 'nora-password-1')).status, 401);
    assert.equal((await signIn('nora@example.com', 'nora-password-2')).status, 200);
    assert.equal((await fetch(`${harness.url}/api/account`, { headers: { cookie: cookie ?? '' } })).status, 401, 'the old session ended');

    assert.equal((await post('/password-reset', { email: 'nora@example.com' })).status, 202);
    const stale = new URL(`https://x${await linkFor('nora@example.com')}`).searchParams.get('token');
    skewMs = windowBase + 61 * 60_000;
    try {
      assert.equal((await post('/password-reset/confirm', { token: stale, password: 'nora-password-4' })).json.error.code, 'link_invalid');
    } finally {
      skewMs = windowBase;
    }
  });

  test('a captcha, when set, is checked against the provider with our secret', async () => {
    freshWindow();
    await harness.admin('PATCH', '/account-settings', { signUp: { captcha: { provider: 'turnstile', secret: CAPTCHA_SECRET, verifyUrl: captcha.url } } });
    const settings = JSON.stringify(await harness.admin('GET', '/account-settings'));
    assert.ok(!settings.includes(CAPTCHA_SECRET), 'the captcha secret is not shown back');
    try {
      const missing = await post('/sign-up', { email: 'pia@example.com', password: 'pia-password-1' }, { 'x-forwarded-for': '198.51.100.7' });
      assert.equal(missing.json.error.code, 'captcha_failed');
      assert.equal(
        (await post('/sign-up', { email: 'pia@example.com', password: 'pia-password-1', captchaToken: 'forged' })).json.error.code,
        'captcha_failed',
      );
      assert.equal((await post('/sign-up', { email: 'pia@example.com', password: 'pia-password-1', captchaToken: captcha.issue() })).status, 202);
    } finally {
      await harness.admin('PATCH', '/account-settings', { signUp: { captcha: null } });
    }
  });

  test('floods are throttled per address and per e-mail, with a retry-after within the hour', async () => {
    freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post('/sign-up', { email: `flood${i}@example.com`, password: 'flood-password' })).status);
    assert.deepEqual(statuses.slice(-3), [429, 429, 429]);
    const refused = await fetch(`${harness.url}/api/account/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'flood9@example.com', password: 'flood-password' }),
    });
    assert.equal(refused.status, 429);
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait > 0 && wait <= 3600, `retry-after ${wait}`);
    skewMs = windowBase + 3_600_000;
    try {
      assert.equal((await post('/sign-up', { email: 'after@example.com', password: 'after-password' })).status, 202, 'the next window lets the real person in');
    } finally {
      skewMs = windowBase;
    }
  });
});
