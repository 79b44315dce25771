import { invalidRequest } from '../core/gateway-error.ts';
import type { Order } from '../domain/order.ts';
import type { NewRebate, RebateStatus, ReferralRebate } from '../store/payment-ports.ts';
import type { Store } from '../store/store.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { readPaymentSettings } from './payment-settings.ts';

const DAY = 86_400_000;

/**
 * Makes `code`'s owner the inviter of a new account (the sign-up route and POST /api/admin/users
 * call it). Refused: an unknown code, the account's own code, and a sign-up from the inviter's
 * own device (`fingerprint`: the device cookie, hashed). Sign-up alone earns nothing: rebates
 * come only from paid orders (rebateFor).
 */
export async function attachReferral(store: Store, accountId: string, code: string, fingerprint: string | null): Promise<void> {
  const inviter = await store.referrals.findCode(code.trim());
  if (!inviter) throw invalidRequest('This invite code is unknown; check the invite link.', 'referralCode');
  if (inviter.userId === accountId) throw invalidRequest('An account cannot invite itself.', 'referralCode');
  if (fingerprint !== null && inviter.deviceFingerprint === fingerprint) {
    throw invalidRequest('This invite link was opened on the inviting account’s own device; self-referral is not allowed.', 'referralCode');
  }
  const inviterSignUp = await store.referrals.inviterOf(inviter.userId);
  if (fingerprint !== null && inviterSignUp?.fingerprint === fingerprint) {
    throw invalidRequest('This device already signed up the inviting account; self-referral is not allowed.', 'referralCode');
  }
  if (!(await store.referrals.attach(accountId, inviter.userId, fingerprint))) throw invalidRequest('This account already has an inviter.', 'referralCode');
}

/**
 * The rebate an order earns its payer's inviter: the inviter's rate (the operator's override, or
 * the general rate) of what was paid, held for the operator's holding days. None when the account
 * has no inviter, the rate is 0, or the payer paid with the same payment identity as the inviter.
 */
export async function rebateFor(deps: PaymentDeps, order: Order): Promise<NewRebate | undefined> {
  const link = await deps.store.referrals.inviterOf(order.userId);
  if (!link) return undefined;
  const [{ referral }, code] = await Promise.all([readPaymentSettings(deps.store), deps.store.referrals.codeOf(link.inviterId)]);
  const rate = code.ratePercent ?? referral.ratePercent;
  const amountMicros = Math.floor((order.amountMicros * rate) / 100);
  if (amountMicros <= 0) return undefined;
  if (order.payerFingerprint !== null && (await deps.store.referrals.payerFingerprintsOf(link.inviterId)).includes(order.payerFingerprint)) return undefined;
  return { orderId: order.id, inviterId: link.inviterId, inviteeId: order.userId, amountMicros, releaseAt: deps.now() + referral.holdDays * DAY };
}

/** Credits the held rebates that are due, then tells the wallets' owners' instances. */
export async function releaseRebates(deps: PaymentDeps): Promise<number> {
  const inviters = await deps.store.referrals.releaseDue(deps.now());
  if (inviters.length > 0) await deps.walletsChanged([...new Set(inviters)]);
  return inviters.length;
}

/** The rebates' sum per status, for the portal (micro-USD, net of claw-backs). */
export function sumRebates(rebates: ReferralRebate[], status: RebateStatus): number {
  return rebates.filter((rebate) => rebate.status === status).reduce((sum, rebate) => sum + rebate.amountMicros - rebate.clawedMicros, 0);
}
