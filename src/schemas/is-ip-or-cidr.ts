import { isIP } from 'node:net';

/** `203.0.113.7`, `10.0.0.0/8`, `2001:db8::1` or `2001:db8::/32`. */
export function isIpOrCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash === -1) return isIP(value) !== 0;
  const version = isIP(value.slice(0, slash));
  const bits = value.slice(slash + 1);
  if (version === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}
