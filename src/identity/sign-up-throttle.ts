import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { fixedWindow, giveWindowPlacesBack, secondsLeft, takeWindowPlace } from '../kv/fixed-window.ts';
import type { Kv } from '../kv/kv.ts';

/** Budgets per window; every attempt counts (a sign-up or reset has no "right password" to give places back). */
export interface SignUpThrottleOptions {
  /** Per client IP address. */
  perAddress: number;
  /** Per network: the address's /24 (IPv4) or /48 (IPv6), against one actor rotating addresses. */
  perNetwork: number;
  /** Per e-mail address asked for: nobody's inbox is flooded with our mail. */
  perEmail: number;
  windowMs: number;
}

export const DEFAULT_SIGN_UP_THROTTLE: SignUpThrottleOptions = { perAddress: 5, perNetwork: 20, perEmail: 3, windowMs: 3_600_000 };

/**
 * Throttles sign-ups and reset requests in fixed windows held in the shared kv (Redis across
 * instances): one bounded atomic increment per budget, so a parallel burst cannot overshoot.
 * A refused attempt gives back the places it took, so a flood from one network does not use up
 * the budget of an e-mail address it does not own for longer than the window.
 */
export class SignUpThrottle {
  constructor(
    private readonly kv: Kv,
    private readonly now: () => number,
    private readonly options: SignUpThrottleOptions = DEFAULT_SIGN_UP_THROTTLE,
    private readonly scope = 'signup',
  ) {}

  /** Seconds to wait, or 0 when the attempt may go on. */
  async admit(address: string, email: string): Promise<number> {
    const window = fixedWindow(this.now(), this.options.windowMs);
    const { index } = window;
    const budgets: Array<[string, number]> = [
      [`${this.scope}:address:${address}:${index}`, this.options.perAddress],
      [`${this.scope}:network:${networkOf(address)}:${index}`, this.options.perNetwork],
      [`${this.scope}:email:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32)}:${index}`, this.options.perEmail],
    ];
    const taken: string[] = [];
    for (const [key, budget] of budgets) {
      if (!(await takeWindowPlace(this.kv, key, budget, window, this.now()))) {
        await giveWindowPlacesBack(this.kv, taken, window.end, this.now());
        return secondsLeft(window, this.now());
      }
      taken.push(key);
    }
    return 0;
  }
}

/** The /24 of an IPv4 address or the /48 of an IPv6 one (an ISP's customer usually has one of either). */
export function networkOf(address: string): string {
  const mapped = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  if (isIP(mapped) === 4) return `${mapped.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIP(mapped) === 6) return `${expandIpv6(mapped).slice(0, 3).join(':')}::/48`;
  return mapped;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = address.includes('::') ? Array(8 - left.length - right.length).fill('0') : [];
  return [...left, ...middle, ...right].map((part) => part.toLowerCase().replace(/^0+(?=.)/, ''));
}
