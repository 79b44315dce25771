/**
 * A user's instance of a plan. Its group and quotas are the plan's (read live, so an operator
 * who edits a plan edits every subscription to it). `suspended` is the operator's switch;
 * `expired` is derived from the time, never stored.
 */
export interface Subscription {
  id: string;
  userId: string;
  planId: string;
  startsAt: number;
  expiresAt: number;
  suspended: boolean;
  createdAt: number;
  updatedAt: number;
}

export type SubscriptionStatus = 'active' | 'suspended' | 'expired';

export function subscriptionStatus(subscription: Subscription, now: number): SubscriptionStatus {
  if (subscription.suspended) return 'suspended';
  return subscription.expiresAt <= now ? 'expired' : 'active';
}

export type NewSubscription = Pick<Subscription, 'userId' | 'planId' | 'startsAt' | 'expiresAt'> & { suspended?: boolean };
export type SubscriptionPatch = Partial<Pick<Subscription, 'suspended' | 'expiresAt'>>;
