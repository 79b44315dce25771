import assert from 'node:assert/strict';
import { createRuntime } from '../../src/core/create-runtime.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { startEpaySimulator, type EpaySimulator } from './epay-simulator.ts';
import { startStripeSimulator, type StripeSimulator } from './stripe-simulator.ts';

export const PASSWORD = 'correct horse battery staple';

export interface PaymentWorld {
  harness: Harness;
  stripe: StripeSimulator;
  epay: EpaySimulator;
  advanceClock(ms: number): void;
  /** Creates an account and signs it in to the portal. */
  account(name: string, extra?: Record<string, unknown>): Promise<Portal>;
  balanceOf(userId: string): Promise<{ balance: number; debtUsd: number }>;
  close(): Promise<void>;
}

export interface Portal {
  id: string;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  json<T = any>(method: string, path: string, body?: unknown, status?: number): Promise<T>;
}

/** A gateway (SQLite, injected clock) with Stripe and Epay simulators connected as the README says. */
export async function startPaymentWorld(overrides: Record<string, unknown> = {}): Promise<PaymentWorld> {
  let offset = 0;
  const runtime = { ...createRuntime(), now: () => Date.now() + offset };
  const harness = await startHarness({ runtime, ...overrides });
  const stripe = await startStripeSimulator({ now: runtime.now });
  const epay = await startEpaySimulator();
  stripe.setWebhook(`${harness.url}/api/payments/stripe/webhook`);
  await harness.admin('PATCH', '/payment-providers/stripe', {
    enabled: true,
    secretKey: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    apiBase: stripe.url,
  });
  await harness.admin('PATCH', '/payment-providers/epay', { enabled: true, pid: epay.pid, key: epay.key, apiBase: epay.url });
  await harness.admin('PATCH', '/payment-providers/manual', { enabled: true });
  await harness.admin('PATCH', '/account-settings', {
    exchangeRates: { CNY: 7.2 },
    topUp: { minUsd: 1, maxUsd: 1000, presetsUsd: [10, 50, 100], bonusTiers: [{ fromUsd: 100, bonusPercent: 10 }] },
    referral: { ratePercent: 10, holdDays: 7 },
  });
  return {
    harness,
    stripe,
    epay,
    advanceClock: (ms) => {
      offset += ms;
    },
    async account(name, extra = {}) {
      const user = await harness.admin('POST', '/users', { name, password: PASSWORD, ...extra }, 201);
      return signIn(harness.url, user.id, name);
    },
    async balanceOf(userId) {
      const user = await harness.admin('GET', `/users/${userId}`);
      return { balance: user.balance, debtUsd: user.debtUsd };
    },
    async close() {
      await harness.close();
      await stripe.close();
      await epay.close();
    },
  };
}

export async function signIn(url: string, id: string, login: string): Promise<Portal> {
  const response = await fetch(`${url}/api/account/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password: PASSWORD }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${url}/api/account${path}`, {
      method,
      headers: { cookie, 'x-csrf-token': csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    id,
    call,
    async json(method, path, body, status) {
      const reply = await call(method, path, body);
      const text = await reply.text();
      if (status !== undefined ? reply.status !== status : reply.status >= 400) throw new Error(`${method} ${path} answered ${reply.status}: ${text}`);
      return JSON.parse(text);
    },
  };
}
