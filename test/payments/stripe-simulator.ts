import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStripeForm, readBody, sendJson } from './read-request.ts';

type Session = Record<string, any>;

/**
 * A local Stripe for tests, enforcing what Stripe enforces: the secret key, Checkout Sessions'
 * required fields (mode, success_url, line items with currency, a whole unit_amount of at least
 * 50 minor units, a product name), expires_at between 30 minutes and 24 hours ahead, idempotency
 * keys (same key and body: the same answer; another body: 400), refunds bounded by what was paid;
 * webhooks signed as Stripe signs them (`t=…,v1=HMAC-SHA256(t.payload)`). Its hosted page
 * (`/c/pay/{id}`) lets a browser pay.
 */
export async function startStripeSimulator(options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const sessions = new Map<string, Session>();
  const idempotency = new Map<string, { bodyHash: string; status: number; answer: unknown }>();
  const refunds: Array<{ paymentIntent: string; amount: number }> = [];
  let webhookUrl: string | undefined;
  let url = '';
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

  // Signed at the wall clock: the stripe package checks the timestamp against it.
  const sign = (payload: string, at = Math.floor(Date.now() / 1000), secret = webhookSecret) =>
    `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex')}`;
  const eventFor = (session: Session, type = 'checkout.session.completed') =>
    JSON.stringify({
      id: id('evt'),
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(now() / 1000),
      livemode: false,
      type,
      data: { object: session },
    });
  const deliver = async (payload: string, header: string) => {
    if (!webhookUrl) throw new Error('no webhook URL set');
    return fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
  };

  const createSession = (form: Record<string, any>): [number, unknown] => {
    if (!['payment', 'subscription', 'setup'].includes(form.mode)) return invalid('mode', 'Missing required param: mode.');
    if (typeof form.success_url !== 'string' || !/^https?:\/\//.test(form.success_url)) return invalid('success_url', 'Not a valid URL');
    const item = form.line_items?.['0'];
    const price = item?.price_data;
    if (!price) return invalid('line_items', 'You must specify line_items in payment mode.');
    if (!/^[a-z]{3}$/.test(price.currency ?? '')) return invalid('line_items[0][price_data][currency]', 'Invalid currency');
    if (!/^\d+$/.test(price.unit_amount ?? '') || Number(price.unit_amount) < 50)
      return invalid('line_items[0][price_data][unit_amount]', 'Amount must be at least 50 minor units');
    if (!price.product_data?.name) return invalid('line_items[0][price_data][product_data][name]', 'Missing required param: name.');
    if (!/^[1-9]\d*$/.test(item.quantity ?? '')) return invalid('line_items[0][quantity]', 'Invalid integer');
    const seconds = Math.floor(now() / 1000);
    if (form.expires_at !== undefined && (Number(form.expires_at) < seconds + 1800 - 5 || Number(form.expires_at) > seconds + 86_400)) {
      return invalid('expires_at', 'The expires_at timestamp must be between 30 minutes and 24 hours from now.');
    }
    const sessionId = id('cs_test');
    const session: Session = {
      id: sessionId,
      object: 'checkout.session',
      mode: form.mode,
      amount_total: Number(price.unit_amount) * Number(item.quantity),
      currency: price.currency,
      client_reference_id: form.client_reference_id ?? null,
      metadata: form.metadata ?? {},
      payment_status: 'unpaid',
      status: 'open',
      payment_intent: null,
      customer_details: null,
      success_url: form.success_url,
      expires_at: Number(form.expires_at ?? seconds + 86_400),
      url: `${url}/c/pay/${sessionId}`,
    };
    sessions.set(sessionId, session);
    return [200, session];
  };

  const createRefund = (form: Record<string, any>): [number, unknown] => {
    const session = [...sessions.values()].find((entry) => entry.payment_intent === form.payment_intent);
    if (!session)
      return [
        404,
        {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_intent',
            message: `No such payment_intent: '${form.payment_intent}'`,
          },
        },
      ];
    const refunded = refunds.filter((entry) => entry.paymentIntent === form.payment_intent).reduce((sum, entry) => sum + entry.amount, 0);
    const amount = form.amount === undefined ? session.amount_total - refunded : Number(form.amount);
    if (!Number.isInteger(amount) || amount <= 0) return invalid('amount', 'Invalid positive integer');
    if (refunded + amount > session.amount_total)
      return [
        400,
        { error: { type: 'invalid_request_error', code: 'amount_too_large', message: 'Refund amount is greater than unrefunded amount on charge' } },
      ];
    refunds.push({ paymentIntent: form.payment_intent, amount });
    return [200, { id: id('re'), object: 'refund', amount, currency: session.currency, payment_intent: form.payment_intent, status: 'succeeded' }];
  };

  const pay = async (sessionId: string, options: { email?: string; deliver?: boolean } = {}) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (session.status !== 'open' || session.expires_at * 1000 < now()) throw new Error(`session ${sessionId} is ${session.status} or expired`);
    Object.assign(session, {
      payment_status: 'paid',
      status: 'complete',
      payment_intent: id('pi'),
      customer_details: { email: options.email ?? 'payer@example.com' },
    });
    const payload = eventFor(session);
    const header = sign(payload);
    const response = options.deliver === false ? undefined : await deliver(payload, header);
    return { payload, header, status: response?.status };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const body = await readBody(request);
    if (path.startsWith('/c/pay/')) return hostedPage(path.slice('/c/pay/'.length), request.method ?? 'GET', body, response);
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return sendJson(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    if (request.method === 'GET' && path.startsWith('/v1/checkout/sessions/')) {
      const session = sessions.get(path.slice('/v1/checkout/sessions/'.length));
      return session
        ? sendJson(response, 200, session)
        : sendJson(response, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' } });
    }
    const create =
      request.method === 'POST' && path === '/v1/checkout/sessions'
        ? createSession
        : request.method === 'POST' && path === '/v1/refunds'
          ? createRefund
          : undefined;
    if (!create) return sendJson(response, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` } });
    const key = request.headers['idempotency-key'];
    const bodyHash = createHash('sha256').update(`${path}\n${body}`).digest('hex');
    const seen = typeof key === 'string' ? idempotency.get(key) : undefined;
    if (seen && seen.bodyHash !== bodyHash) {
      return sendJson(response, 400, {
        error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' },
      });
    }
    if (seen) return sendJson(response, seen.status, seen.answer);
    const [status, answer] = create(parseStripeForm(body));
    if (typeof key === 'string') idempotency.set(key, { bodyHash, status, answer });
    return sendJson(response, status, answer);
  };

  const hostedPage = async (sessionId: string, method: string, body: string, response: ServerResponse) => {
    const session = sessions.get(sessionId);
    if (!session) return response.writeHead(404).end('No such checkout session');
    if (method === 'POST') {
      await pay(sessionId, { email: new URLSearchParams(body).get('email') ?? 'payer@example.com' });
      return response.writeHead(303, { location: session.success_url }).end();
    }
    const amount = `${(session.amount_total / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><title>Stripe simulator checkout</title><h1>Pay ${amount}</h1><form method="post"><label>Email <input name="email" value="payer@example.com"></label><button type="submit">Pay ${amount}</button></form>`,
      );
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => sendJson(response, 500, { error: { message: error.message } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    secretKey,
    webhookSecret,
    sessions,
    refunds,
    setWebhook(address: string) {
      webhookUrl = address;
    },
    sign,
    eventFor,
    deliver,
    pay,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function invalid(param: string, message: string): [number, unknown] {
  return [400, { error: { type: 'invalid_request_error', param, message } }];
}

export type StripeSimulator = Awaited<ReturnType<typeof startStripeSimulator>>;
