import { t } from './i18n.ts';

const KNOWN = new Set(['active', 'suspended', 'expired', 'used', 'unused', 'revoked', 'disabled', 'enabled']);

/** A record's state as the API names it, in the reader's language (an unknown state stays as sent). */
export function statusName(state: string): string {
  return KNOWN.has(state) ? t(`status.${state}`) : state;
}

const ORDER_STATES = new Set(['pending', 'paid', 'credited', 'expired', 'refunded', 'partially_refunded']);

/** A payment order's state as the API names it, in the reader's language (an unknown state stays as sent). */
export function orderStatusName(state: string): string {
  return ORDER_STATES.has(state) ? t(`orderStatus.${state}`) : state;
}

const WITHDRAWAL_STATES = new Set(['pending', 'approved', 'paid', 'rejected']);

/** A rebate withdrawal's state as the API names it, in the reader's language. */
export function withdrawalStatusName(state: string): string {
  return WITHDRAWAL_STATES.has(state) ? t(`withdrawalStatus.${state}`) : state;
}
