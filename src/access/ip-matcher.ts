import { isIP } from 'node:net';

/** A parsed IP as a 128-bit number (IPv4 mapped into ::ffff:0:0/96), so v4 and v6 compare alike. */
interface ParsedIp {
  value: bigint;
  v4: boolean;
}

const V4_MAPPED_PREFIX = 0xffffn << 32n;

/**
 * Matches addresses against a list of IPs and CIDRs, IPv4 and IPv6. An IPv4 client seen on a
 * dual-stack socket as `::ffff:203.0.113.7` matches `203.0.113.0/24`, and the other way round.
 * Entries that do not parse match nothing (the admin API validates them on the way in).
 */
export function createIpMatcher(entries: readonly string[]): (ip: string) => boolean {
  const ranges = entries.flatMap((entry) => {
    const range = parseCidr(entry);
    return range ? [range] : [];
  });
  return (ip) => {
    const parsed = parseIp(ip);
    if (!parsed) return false;
    return ranges.some((range) => (parsed.value & range.mask) === range.network);
  };
}

function parseCidr(entry: string): { network: bigint; mask: bigint } | undefined {
  const [address = '', bitsText] = entry.trim().split('/');
  const parsed = parseIp(address);
  if (!parsed) return undefined;
  // Prefix length counts in the notation written: `10.0.0.0/8` in v4 bits, `::ffff:10.0.0.0/104` in v6 bits.
  const writtenV4 = isIP(address.trim()) === 4;
  const maxBits = writtenV4 ? 32 : 128;
  const bits = bitsText === undefined ? maxBits : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > maxBits) return undefined;
  // v4 prefixes live in the low 32 bits of the mapped form, under the fixed 96-bit prefix.
  const prefixBits = writtenV4 ? 96 + bits : bits;
  const mask = prefixBits === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - prefixBits)) - 1n);
  return { network: parsed.value & mask, mask };
}

/** Also accepts `[v6]`, a zone id (`fe80::1%eth0`) and the v4-mapped form. */
export function parseIp(text: string): ParsedIp | undefined {
  let address = text.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  switch (isIP(address)) {
    case 4:
      return { value: V4_MAPPED_PREFIX | parseV4(address), v4: true };
    case 6: {
      const value = parseV6(address);
      return { value, v4: value >> 32n === 0xffffn };
    }
    default:
      return undefined;
  }
}

/** `::ffff:198.51.100.4` → `198.51.100.4`; other addresses unchanged. For logs and messages. */
export function normalizeIp(text: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text.trim());
  return match?.[1] ?? text.trim();
}

function parseV4(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

function parseV6(address: string): bigint {
  let text = address;
  let tail: bigint[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(text.slice(lastColon + 1));
    tail = [v4 >> 16n, v4 & 0xffffn];
    text = text.slice(0, lastColon);
    // `::1.2.3.4` leaves `:`, which must stay the `::` it was.
    if (text.endsWith(':')) text = `${text}:`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const explicit = headGroups.length + restGroups.length + tail.length;
  const zeros = rest === undefined ? 0 : 8 - explicit;
  const groups = [
    ...headGroups.map((group) => BigInt(Number.parseInt(group, 16))),
    ...Array.from({ length: zeros }, () => 0n),
    ...restGroups.map((group) => BigInt(Number.parseInt(group, 16))),
    ...tail,
  ];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}
