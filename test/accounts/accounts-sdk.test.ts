import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { callSurface, GENERATION_SURFACES } from '../access/surface-calls.ts';
import { formatTime } from '../../src/billing/format-time.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

const COST = 100;
const usd = (micros: number) => micros / 1_000_000;

function header(headers: unknown, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  if (headers && typeof headers === 'object') return ((headers as Record<string, string>)[name] ?? null) as string | null;
  return null;
}

/**
 * Every 403/400 of issue 15 as the official SDKs see it: the status, the code in
 * `x-switchyard-error-code` (and in the body where the protocol has a code field), and a
 * message that names what the issue says it must. Also every generation surface by hand.
 */
describe('account refusals through the official SDKs and every surface', () => {
  let harness: Harness;
  const keys: Record<string, string> = {};
  let expiredAt = '';

  before(async () => {
    harness = await startHarness();
    await harness.admin('POST', '/groups', { name: 'pro', billing: 'subscription' });
    await harness.admin('POST', '/groups', { name: 'flex', billing: 'subscription_then_balance' });
    await harness.addChannel({ provider: 'openai', models: ['gpt-4o-mini'], groups: ['default', 'pro', 'flex'], supportsResponses: true });
    await harness.admin('POST', '/prices', { model: 'gpt-4o-mini', input: 0, output: 1 });
    harness.simulator.setDefault({ text: 'ok', usage: { input: 10, output: 100 } });
    await harness.admin('POST', '/plans', { name: 'pro-monthly', group: 'pro', durationDays: 30, quota: { daily: usd(COST) }, price: 20 });

    const user = async (name: string, balance = 0) => (await harness.admin('POST', '/users', { name, balance })).id as string;
    const key = async (name: string, group: string, userId?: string) =>
      (keys[name] = (await harness.admin('POST', '/keys', { name, group, ...(userId ? { user: userId } : {}) })).key);

    await key('no-user', 'pro');
    await key('no-subscription', 'pro', await user('nosub'));
    const expiredUser = await user('expired');
    const past = Date.now() - 86_400_000;
    expiredAt = new Date(past + 3_600_000).toISOString();
    await harness.admin('POST', '/subscriptions', { user: expiredUser, plan: 'pro-monthly', startsAt: new Date(past).toISOString(), expiresAt: expiredAt });
    await key('expired', 'pro', expiredUser);
    const suspendedUser = await user('suspended');
    const suspended = await harness.admin('POST', '/subscriptions', { user: suspendedUser, plan: 'pro-monthly' });
    await harness.admin('PATCH', `/subscriptions/${suspended.id}`, { status: 'suspended' });
    await key('suspended', 'pro', suspendedUser);
    const quotaUser = await user('quota');
    await harness.admin('POST', '/subscriptions', { user: quotaUser, plan: 'pro-monthly' });
    await key('quota', 'pro', quotaUser);
    await key('wallet-empty', 'default', await user('broke'));
    // Use up the quota's one request.
    assert.equal((await callSurface(harness.url, 'openai-chat', { key: keys.quota as string })).status, 200);
  });
  after(() => harness.close());

  const cases: Array<{ key: string; code: string; names: RegExp }> = [
    { key: 'no-user', code: 'subscription_required', names: /group "pro".*attach the key to an account/i },
    { key: 'no-subscription', code: 'subscription_required', names: /group "pro".*POST \/api\/me\/redeem.*"pro-monthly"/i },
    { key: 'expired', code: 'subscription_expired', names: /expired on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC\. / },
    { key: 'suspended', code: 'subscription_suspended', names: /suspended by the operator/ },
    {
      key: 'quota',
      code: 'subscription_quota_exhausted',
      names: /has used up its daily quota of \$0\.0001.*resets on \d{1,2} [A-Z][a-z]{2} \d{4}, 00:00 UTC\./,
    },
    { key: 'wallet-empty', code: 'insufficient_balance', names: /wallet of account "broke" is empty/ },
  ];

  for (const { key, code, names } of cases) {
    test(`${code} (${key}): 403 with the code on every surface and SDK`, async () => {
      const secret = keys[key] as string;
      if (key === 'expired') assert.ok(expiredAt);

      const openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: secret, maxRetries: 0 });
      const chatError = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 }).then(
        () => assert.fail('expected a refusal'),
        (error: unknown) => error,
      );
      assert.ok(chatError instanceof OpenAI.APIError);
      assert.equal(chatError.status, 403);
      assert.equal(chatError.code, code);
      assert.equal(header(chatError.headers, 'x-switchyard-error-code'), code);
      assert.match(chatError.message, names);
      if (key === 'expired') assert.ok(chatError.message.includes(formatTime(Date.parse(expiredAt))), chatError.message);

      const responsesError = await openai.responses.create({ model: 'gpt-4o-mini', input: 'hi', max_output_tokens: 100 }).then(
        () => assert.fail('expected a refusal'),
        (error: unknown) => error,
      );
      assert.ok(responsesError instanceof OpenAI.APIError);
      assert.equal(responsesError.status, 403);
      assert.equal(header(responsesError.headers, 'x-switchyard-error-code'), code);

      const anthropic = new Anthropic({ baseURL: harness.url, apiKey: secret, maxRetries: 0 });
      const messagesError = await anthropic.messages.create({ model: 'gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).then(
        () => assert.fail('expected a refusal'),
        (error: unknown) => error,
      );
      assert.ok(messagesError instanceof Anthropic.APIError);
      assert.equal(messagesError.status, 403);
      assert.equal(header(messagesError.headers, 'x-switchyard-error-code'), code);
      assert.match((messagesError.error as any)?.error?.message ?? '', names);

      const gemini = new GoogleGenAI({ apiKey: secret, httpOptions: { baseUrl: harness.url } });
      const geminiError = await gemini.models.generateContent({ model: 'gpt-4o-mini', contents: 'hi', config: { maxOutputTokens: 100 } }).then(
        () => assert.fail('expected a refusal'),
        (error: unknown) => error as { status?: number; message: string },
      );
      assert.equal(geminiError.status, 403);
      // The SDK's message is the Gemini error body as JSON: the code is its ErrorInfo reason.
      const geminiBody = JSON.parse(geminiError.message).error;
      assert.match(geminiBody.message, names);
      assert.equal(geminiBody.details[0].reason, code.toUpperCase());

      for (const surface of GENERATION_SURFACES) {
        const reply = await callSurface(harness.url, surface, { key: secret });
        assert.equal(reply.status, 403, surface);
        assert.equal(reply.code, code, surface);
        assert.match(reply.message, names, surface);
      }

      // The model check names the same answer.
      const check: any = await (await fetch(`${harness.url}/api/diagnose?model=gpt-4o-mini`, { headers: { authorization: `Bearer ${secret}` } })).json();
      const step = check.checks.find((entry: any) => entry.name === 'subscription');
      assert.equal(step.verdict, 'fail');
      assert.equal(step.code, code);
    });
  }

  test('invalid_redemption_code: 400 naming unknown, used or expired', async () => {
    const secret = keys['no-subscription'] as string;
    const redeem = async (code: string) => {
      const response = await fetch(`${harness.url}/api/me/redeem`, {
        method: 'POST',
        headers: { 'x-api-key': secret, 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      return { status: response.status, code: response.headers.get('x-switchyard-error-code'), body: (await response.json()) as any };
    };
    const unknown = await redeem('rc-doesnotexist');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.code, 'invalid_redemption_code');
    assert.match(JSON.stringify(unknown.body), /unknown/);

    const { codes } = await harness.admin('POST', '/redemption-codes', { kind: 'subscription', plan: 'pro-monthly' }, 201);
    const granted = await redeem(codes[0]);
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.equal(granted.body.subscription.plan, 'pro-monthly');
    const again = await redeem(codes[0]);
    assert.equal(again.status, 400);
    assert.match(JSON.stringify(again.body), /already used, on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC;/);
    // Now subscribed: the key is served.
    assert.equal((await callSurface(harness.url, 'anthropic', { key: secret })).status, 200);

    const expired = await harness.admin('POST', '/redemption-codes', { kind: 'balance', amount: 1, expiresAt: '2020-01-01T00:00:00Z' }, 201);
    const late = await redeem(expired.codes[0]);
    assert.equal(late.status, 400);
    assert.match(JSON.stringify(late.body), /expired on 1 Jan 2020, 00:00 UTC;/);
  });

  test('subscription_then_balance with no subscription pays from the wallet; /api/me shows wallet and subscriptions', async () => {
    const userId = (await harness.admin('POST', '/users', { name: 'flexer', balance: usd(COST) })).id;
    const secret = (await harness.admin('POST', '/keys', { name: 'flex-key', group: 'flex', user: userId })).key;
    assert.equal((await callSurface(harness.url, 'gemini', { key: secret })).status, 200);
    assert.equal((await callSurface(harness.url, 'gemini', { key: secret })).code, 'insufficient_balance');
    const me: any = await (await fetch(`${harness.url}/api/me`, { headers: { authorization: `Bearer ${secret}` } })).json();
    assert.equal(me.balance, 0);
    assert.deepEqual(me.account, { id: userId, name: 'flexer', email: null, wallet: 0 });
    assert.equal(me.billing.paysFrom, 'wallet');
    assert.deepEqual(me.subscriptions, []);
    const quotaMe: any = await (await fetch(`${harness.url}/api/me`, { headers: { authorization: `Bearer ${keys.quota}` } })).json();
    assert.equal(quotaMe.subscriptions.length, 1);
    assert.equal(quotaMe.subscriptions[0].remaining.daily, 0);
    assert.equal(quotaMe.subscriptions[0].usage.daily, usd(COST));
    assert.match(quotaMe.subscriptions[0].resetsAt.daily, /T00:00:00\.000Z$/);
  });

  test('what pays is said the same way by /api/me, the admin key list and the usage rows (issue 24)', async () => {
    const subscriber = (await harness.admin('POST', '/users', { name: 'payer-check', balance: 5 })).id;
    await harness.admin('POST', '/subscriptions', { user: subscriber, plan: 'pro-monthly' });
    const proKey = await harness.admin('POST', '/keys', { name: 'payer-pro', group: 'pro', user: subscriber });
    await harness.admin('POST', '/keys', { name: 'payer-wallet', group: 'default', user: subscriber });
    const ownKey = await harness.admin('POST', '/keys', { name: 'payer-own', group: 'default', balance: 1 });
    const unlimited = await harness.admin('POST', '/keys', { name: 'payer-none', group: 'default' });

    assert.equal((await callSurface(harness.url, 'openai-chat', { key: proKey.key })).status, 200);
    const me: any = await (await fetch(`${harness.url}/api/me`, { headers: { authorization: `Bearer ${proKey.key}` } })).json();
    assert.equal(me.billing.mode, 'subscription');
    assert.equal(me.billing.paysFrom, 'subscription');
    const logs = (await harness.admin('GET', `/logs?keyId=${proKey.id}`)).data as Array<{ paidBy: string | null; keyId: string }>;
    assert.deepEqual(
      logs.filter((row) => row.keyId === proKey.id).map((row) => row.paidBy),
      ['subscription'],
    );

    const listed = new Map(((await harness.admin('GET', '/keys')).data as any[]).map((key) => [key.name, key]));
    assert.deepEqual([listed.get('payer-pro').owner, listed.get('payer-pro').paysFrom], [{ id: subscriber, name: 'payer-check' }, 'subscription']);
    assert.deepEqual([listed.get('payer-wallet').owner?.name, listed.get('payer-wallet').paysFrom], ['payer-check', 'wallet']);
    assert.deepEqual([listed.get('payer-own').owner, listed.get('payer-own').paysFrom], [null, 'key_balance']);
    assert.deepEqual([listed.get('payer-none').owner, listed.get('payer-none').paysFrom], [null, 'unlimited']);
    assert.equal(ownKey.paysFrom, 'key_balance');
    assert.equal(unlimited.owner, null);
  });
});
