import type Stripe from 'stripe';
import { requireOnDemand } from '../core/require-on-demand.ts';
import type { Order } from '../domain/order.ts';
import { hashPayer } from './hash-payer.ts';
import { PaymentProviderError, PaymentRefusedError, type PaymentConfirmation, type PaymentProvider } from './payment-provider.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Where the API is (default https://api.stripe.com); a simulator's address in tests. */
  apiBase?: string | undefined;
  currency: string;
}

/** Stripe's documented default tolerance for a webhook's signed timestamp: five minutes. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;
/** Stripe accepts a Checkout Session's expires_at from 30 minutes to 24 hours ahead. */
const MIN_SESSION_LIFE_MS = 30 * 60_000;

const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/** Stripe Checkout Sessions and signed webhooks, through the official `stripe` package. */
export function createStripeProvider(settings: StripeSettings, now: () => number): PaymentProvider {
  // Loaded when a Stripe provider is built: ~1 MB of source most gateways never run (idle RSS).
  const StripeClient = requireOnDemand('stripe') as typeof Stripe;
  const stripe = new StripeClient(settings.secretKey, { ...apiAddress(settings.apiBase), maxNetworkRetries: 1, timeout: 15_000, telemetry: false });
  const currency = settings.currency;
  return {
    name: 'stripe',
    currency,
    async createCheckout({ order, description, returnUrl }) {
      const lifeMs = order.expiresAt - now();
      const session = await call('create a Checkout Session', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [{ quantity: 1, price_data: { currency, unit_amount: order.chargeMinor, product_data: { name: description } } }],
            success_url: returnUrl,
            cancel_url: returnUrl,
            client_reference_id: order.id,
            metadata: { orderId: order.id },
            ...(lifeMs >= MIN_SESSION_LIFE_MS ? { expires_at: Math.floor(order.expiresAt / 1000) } : {}),
          },
          // A retried create (a lost answer) returns the same session instead of a second one.
          { idempotencyKey: `switchyard-checkout-${order.id}` },
        ),
      );
      return { providerRef: session.id, checkoutUrl: session.url };
    },

    async verifyNotification({ rawBody, headers }) {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string') throw new PaymentRefusedError('The Stripe-Signature header is missing.');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret, STRIPE_SIGNATURE_TOLERANCE_SECONDS);
      } catch (error) {
        throw new PaymentRefusedError(`The Stripe signature does not verify: ${(error as Error).message}`);
      }
      if (!PAID_EVENTS.has(event.type)) return { kind: 'ignored', reason: `event ${event.type} is not a payment` };
      const session = event.data.object as Stripe.Checkout.Session;
      const payment = confirmation(session);
      return payment ? { kind: 'paid', payment } : { kind: 'ignored', reason: `session ${session.id} is ${session.payment_status}` };
    },

    async queryOrder(order) {
      if (!order.providerRef) return undefined;
      const session = await call('read the Checkout Session', () => stripe.checkout.sessions.retrieve(order.providerRef as string));
      return confirmation(session);
    },

    async refund(order: Order, amountMinor, idempotencyKey) {
      if (!order.paymentRef) throw new PaymentProviderError(`Order ${order.id} has no Stripe payment to refund.`);
      await call('refund the payment', () => stripe.refunds.create({ payment_intent: order.paymentRef as string, amount: amountMinor }, { idempotencyKey }));
    },
  };
}

function confirmation(session: Stripe.Checkout.Session): PaymentConfirmation | undefined {
  const orderId = session.metadata?.orderId ?? session.client_reference_id;
  if (session.payment_status !== 'paid' || !orderId) return undefined;
  const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  const email = session.customer_details?.email;
  return {
    orderId,
    paymentRef: intent ?? session.id,
    currency: (session.currency ?? '').toLowerCase(),
    paidMinor: session.amount_total ?? -1,
    payerFingerprint: email ? hashPayer(email) : null,
  };
}

function apiAddress(apiBase: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port), protocol };
}

async function call<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw new PaymentProviderError(`Stripe could not ${what}: ${(error as Error).message}`);
  }
}
