import type { ApiKey } from '../domain/api-key.ts';
import type { Group } from '../domain/group.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { findSubscriptions } from './account-billing.ts';

/** What pays a key's next request: the key's balance, its account's wallet, a subscription, or nothing (an unlimited key). */
export type Payer = 'key_balance' | 'wallet' | 'subscription' | 'unlimited';

/**
 * The payer `AccountBilling.hold` picks for the key's next request, by the same rules (its
 * group's billing mode; a subscription's quota left is not looked at: a `subscription_then_balance`
 * group with an active subscription says `subscription`). A `subscription` group without one
 * still says `subscription`: its requests are refused until there is one. One rule for every
 * place that says what pays (`GET /api/me`, the admin key list), so none can contradict the
 * usage rows' `paidBy`. A key whose group is gone (`undefined`: refused anyway) is shown by its balance rule.
 */
export function nextPayer(snapshot: Snapshot, key: ApiKey, group: Group | undefined, now: number): Payer {
  if (group?.billing === 'subscription') return 'subscription';
  if (group?.billing === 'subscription_then_balance' && findSubscriptions(snapshot, key, group, now).usable.length > 0) return 'subscription';
  if (key.balanceMicros !== null) return 'key_balance';
  return key.userId && snapshot.users.has(key.userId) ? 'wallet' : 'unlimited';
}
