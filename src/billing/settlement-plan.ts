import type { Kv } from '../kv/kv.ts';
import type { ChargeWriter } from './charge-writer.ts';

/** Which charge writer a charge goes to: the key's, the user's wallet, a subscription's window usage. */
export type ChargeTarget = 'key' | 'wallet' | 'subscription';

/**
 * What settling a request's hold does, as data: the kv holds it replaces with the cost (an
 * account goes down by it, `sign` -1; a spend or quota window up, +1) and the charge writers it
 * records the cost on. The meters build it beside their hold; another instance replays it
 * (`applySettlement`) to bill a dead instance's stream exactly as that instance would have.
 */
export interface SettlementPlan {
  holds: Array<[key: string, holdId: string, sign: 1 | -1]>;
  charges: Array<[target: ChargeTarget, id: string]>;
}

export function joinPlans(...plans: SettlementPlan[]): SettlementPlan {
  return { holds: plans.flatMap((plan) => plan.holds), charges: plans.flatMap((plan) => plan.charges) };
}

/**
 * Settles `plan` to `costMicros`: the charges recorded first (an account seeded from then on
 * subtracts them as pending), then each hold replaced by id. What a meter's own settle does, and
 * what another instance replays for a dead instance's stream.
 */
export async function applySettlement(
  plan: SettlementPlan,
  costMicros: number,
  kv: Kv,
  writerFor: (target: ChargeTarget) => Pick<ChargeWriter, 'record'>,
): Promise<void> {
  for (const [target, id] of plan.charges) writerFor(target).record(id, costMicros);
  await Promise.all(plan.holds.map(([key, holdId, sign]) => kv.settle(key, holdId, sign * costMicros)));
}

/** A meter's settle: `plan` applied with its one charge writer, at most once. */
export function settleOnce(plan: SettlementPlan, kv: Kv, writer: Pick<ChargeWriter, 'record'>): (costMicros: number) => Promise<void> {
  let settled = false;
  return async (costMicros) => {
    if (settled) return;
    settled = true;
    await applySettlement(plan, costMicros, kv, () => writer);
  };
}

/** A plan read back from Redis: the shape checked, since it decides where money goes. */
export function isSettlementPlan(value: unknown): value is SettlementPlan {
  if (typeof value !== 'object' || value === null) return false;
  const { holds, charges } = value as Record<string, unknown>;
  return (
    Array.isArray(holds) &&
    holds.every((hold) => Array.isArray(hold) && typeof hold[0] === 'string' && typeof hold[1] === 'string' && (hold[2] === 1 || hold[2] === -1)) &&
    Array.isArray(charges) &&
    charges.every((charge) => Array.isArray(charge) && ['key', 'wallet', 'subscription'].includes(charge[0]) && typeof charge[1] === 'string')
  );
}
