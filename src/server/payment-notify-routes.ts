import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PaymentProviderName } from '../domain/order.ts';
import type { PaymentDeps } from '../payments/payment-deps.ts';
import { PaymentProviderError, PaymentRefusedError, type IncomingNotification } from '../payments/payment-provider.ts';
import { startPaymentReconciler } from '../payments/reconcile-orders.ts';
import { settlePayment } from '../payments/settle-payment.ts';
import type { AppDeps } from './app-deps.ts';
import { paymentDepsOf } from './payment-deps-of.ts';

const RECONCILE_INTERVAL_MS = 60_000;

/**
 * The providers' notifications (issue 28): `POST /api/payments/stripe/webhook` (the raw body is
 * kept: Stripe signs the bytes) and `GET`/`POST /api/payments/epay/notify` (signed parameters;
 * answered `success`, Epay's acknowledgement, also for a replay of an order already credited).
 * A notification that does not verify, or whose amount or currency differs from the order's, is a
 * 400 and credits nothing. Also starts this instance's reconciler (pending orders asked about
 * before they expire, held rebates released).
 */
export function registerPaymentNotifyRoutes(app: FastifyInstance, deps: AppDeps): void {
  const payments = paymentDepsOf(deps);
  app.register(async (scope) => {
    // Only in this scope: the bodies stay the bytes the provider signed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    scope.post('/api/payments/stripe/webhook', async (request, reply) => {
      const outcome = await handle(payments, 'stripe', notificationOf(request), deps);
      return reply.code(outcome.ok ? 200 : 400).send(outcome.ok ? { received: true } : { error: { message: outcome.message } });
    });
    const epay = async (request: FastifyRequest, reply: FastifyReply) => {
      const outcome = await handle(payments, 'epay', notificationOf(request), deps);
      return reply
        .code(outcome.ok ? 200 : 400)
        .type('text/plain')
        .send(outcome.ok ? 'success' : `fail: ${outcome.message}`);
    };
    scope.get('/api/payments/epay/notify', epay);
    scope.post('/api/payments/epay/notify', epay);
  });

  let stop: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stop = startPaymentReconciler(payments, RECONCILE_INTERVAL_MS, (message, detail) => deps.logger.warn(detail, message));
  });
  app.addHook('onClose', async () => stop?.());
}

async function handle(
  payments: PaymentDeps,
  name: PaymentProviderName,
  notification: IncomingNotification,
  deps: AppDeps,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const provider = await payments.provider(name);
  if (!provider) return { ok: false, message: `${name} payments are not enabled` };
  try {
    const outcome = await provider.verifyNotification(notification);
    if (outcome.kind === 'paid') {
      const order = await settlePayment(payments, name, outcome.payment);
      deps.logger.info({ orderId: order.id, provider: name, status: order.status }, 'payment notification settled');
    }
    return { ok: true };
  } catch (error) {
    if (!(error instanceof PaymentRefusedError) && !(error instanceof PaymentProviderError)) throw error;
    // Logged without the body or headers: they carry the signature.
    deps.logger.warn({ provider: name, reason: error.message }, 'payment notification refused');
    return { ok: false, message: error.message };
  }
}

function notificationOf(request: FastifyRequest): IncomingNotification {
  const rawBody = typeof request.body === 'string' ? request.body : '';
  const params: Record<string, string> = {};
  const query = request.query as Record<string, unknown>;
  for (const [name, value] of Object.entries(query ?? {})) if (typeof value === 'string') params[name] = value;
  if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
    for (const [name, value] of new URLSearchParams(rawBody)) params[name] = value;
  }
  return { rawBody, headers: request.headers, params };
}
