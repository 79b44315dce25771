import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The Epay (易支付) signature: the parameters sorted by name (ASCII), without `sign`,
 * `sign_type` and empty values, joined as `a=1&b=2` (values not URL-encoded), the merchant key
 * appended directly, MD5 in lower-case hex.
 */
export function epaySign(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== undefined && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

/** Whether `params.sign` is the signature of the rest (constant-time compare). */
export function epaySignatureValid(params: Record<string, string>, key: string): boolean {
  const sent = Buffer.from((params.sign ?? '').toLowerCase(), 'utf8');
  const expected = Buffer.from(epaySign(params, key), 'utf8');
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/** Minor units (fen) as Epay's `money`: yuan with two decimals ("12.30"). */
export function minorToMoney(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/** Epay's `money` as minor units, or undefined when it is not a plain amount with at most two decimals. */
export function moneyToMinor(money: string | undefined): number | undefined {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(money ?? '');
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
