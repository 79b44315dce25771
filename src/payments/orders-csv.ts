import type { Order } from '../domain/order.ts';

const HEADER = [
  'id',
  'created_at',
  'user_id',
  'provider',
  'status',
  'plan_id',
  'amount_usd',
  'bonus_usd',
  'credit_usd',
  'refunded_usd',
  'currency',
  'charge_amount',
  'payment_ref',
];

/** Micro-USD as an exact decimal string (no floating point): 1234567 → "1.234567". */
export function microsText(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const whole = Math.abs(micros);
  return `${sign}${Math.floor(whole / 1_000_000)}.${String(whole % 1_000_000).padStart(6, '0')}`;
}

/** A CSV field, quoted when it holds a separator, a quote or a line break; a leading =+-@ is defused for spreadsheets. */
export function csvField(value: string): string {
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The operator's export of orders (and, through `refunded_usd`, refunds), one line each, then a
 * totals line: paid (credited or refunded orders), bonuses, refunded, and the net.
 */
export function ordersCsv(orders: Order[]): string {
  const lines = [HEADER.join(',')];
  for (const order of orders) {
    lines.push(
      [
        order.id,
        new Date(order.createdAt).toISOString(),
        order.userId,
        order.provider,
        order.status,
        order.planId ?? '',
        microsText(order.amountMicros),
        microsText(order.bonusMicros),
        microsText(order.creditMicros),
        microsText(order.refundedMicros),
        order.currency,
        (order.chargeMinor / 100).toFixed(2),
        order.paymentRef ?? '',
      ]
        .map(csvField)
        .join(','),
    );
  }
  const settled = orders.filter((order) => order.creditedAt !== null);
  const sum = (pick: (order: Order) => number) => settled.reduce((total, order) => total + pick(order), 0);
  const paid = sum((order) => order.amountMicros);
  const refunded = sum((order) => order.refundedMicros);
  lines.push(
    [
      'TOTAL',
      '',
      '',
      '',
      `${settled.length} paid`,
      '',
      microsText(paid),
      microsText(sum((order) => order.bonusMicros)),
      '',
      microsText(refunded),
      '',
      '',
      `net ${microsText(paid - refunded)}`,
    ]
      .map(csvField)
      .join(','),
  );
  return `${lines.join('\r\n')}\r\n`;
}
