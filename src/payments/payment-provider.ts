import type { Order, PaymentProviderName } from '../domain/order.ts';

/** What the provider needs to open a checkout for an order. */
export interface CheckoutRequest {
  order: Order;
  /** The line the payer sees ("Top-up $10.00", "Plan Pro"). */
  description: string;
  /** Where the payer's browser goes after paying (the portal's order page). */
  returnUrl: string;
  /** Where the provider posts its notification, for providers that take it per order (Epay). */
  notifyUrl: string;
}

export interface Checkout {
  /** The provider's id of the checkout (Stripe session id; Epay uses our order id). */
  providerRef: string;
  /** The page the payer opens; null for manual orders (the operator marks them paid). */
  checkoutUrl: string | null;
}

/** A payment the provider vouches for (a verified notification, or its answer to a query). */
export interface PaymentConfirmation {
  orderId: string;
  /** The provider's id of the payment, kept to refund it (Stripe payment intent, Epay trade_no). */
  paymentRef: string;
  currency: string;
  /** What was paid, in the currency's minor unit; must equal the order's `chargeMinor`. */
  paidMinor: number;
  /** Who paid, hashed (for the self-referral check), when the provider says. */
  payerFingerprint: string | null;
}

/** The parts of an HTTP notification a provider verifies. */
export interface IncomingNotification {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  /** Query or form parameters (Epay signs these). */
  params: Record<string, string>;
}

export type NotificationOutcome = { kind: 'paid'; payment: PaymentConfirmation } | { kind: 'ignored'; reason: string };

/**
 * One payment provider behind the four things an order needs. Verification throws
 * PaymentRefusedError for anything the provider itself would not have sent (bad or stale
 * signature, wrong merchant); what is merely not a payment (another event type, an unpaid
 * status) is `ignored`.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** The currency it charges in (lower case ISO 4217). */
  readonly currency: string;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  verifyNotification(notification: IncomingNotification): Promise<NotificationOutcome>;
  /** The payment of the order, if the provider says it was paid; undefined when not (yet). */
  queryOrder(order: Order): Promise<PaymentConfirmation | undefined>;
  /** Refunds `amountMinor` of the order's payment; the same `idempotencyKey` never refunds twice where the provider supports it. */
  refund(order: Order, amountMinor: number, idempotencyKey: string): Promise<void>;
}

/** A notification or answer the gateway must not trust; the route answers 400 and credits nothing. */
export class PaymentRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentRefusedError';
  }
}

/** The provider could not be reached or refused an operation (a checkout, a refund): a 502 to the caller. */
export class PaymentProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
