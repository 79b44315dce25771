/**
 * How a group's requests are paid: `balance` (the key's own balance, else its user's wallet),
 * `subscription` (only a subscription of the key's user to a plan for the group),
 * `subscription_then_balance` (the subscription while it has quota, then the balance).
 */
export const BILLING_MODES = ['balance', 'subscription', 'subscription_then_balance'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];
