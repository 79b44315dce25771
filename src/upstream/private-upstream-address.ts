import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { GatewayError } from '../core/gateway-error.ts';

/**
 * An address an upstream on the public internet never has: loopback, private (RFC 1918, unique
 * local), link-local (169.254.0.0/16 with the cloud metadata services, fe80::/10), carrier-grade
 * NAT, unspecified, multicast, broadcast, reserved and documentation ranges, and IPv6 forms that
 * embed an IPv4 address (mapped, NAT64, 6to4, Teredo), which are judged by what they could
 * reach. Only plain global unicast passes. Something that is not an address is not private.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return false;
  // `process` turns an IPv4-mapped IPv6 address (::ffff:169.254.169.254) into the IPv4 one.
  return ipaddr.process(bare).range() !== 'unicast';
}

/**
 * The DNS lookup of the upstream HTTP client when BLOCK_PRIVATE_UPSTREAMS is on: the addresses a
 * connection would use are checked as it is made, so a name that resolves to a private address
 * — from the start, or after a DNS rebind once the channel was saved — is never connected to.
 */
export function lookupPublicOnly(
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  const all: LookupAllOptions = { ...options, all: true };
  lookup(hostname, all, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) return callback(privateAddressError(hostname, refused.address), '');
    if (options.all === true) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    return callback(null, first.address, first.family);
  });
}

/**
 * Refuses a URL whose host is itself a private address: a connection to an IP literal makes no
 * lookup, so `lookupPublicOnly` never sees it. Names are left to the lookup.
 */
export function refusePrivateLiteral(url: URL): void {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0 && isPrivateAddress(host)) throw privateAddressError(url.hostname, host);
}

/**
 * The save-time check of a channel's base address (admin API, config file): its host, or every
 * address its name resolves to now, must be public. A name that does not resolve is let through:
 * it cannot be connected to either, and the connect-time check still applies when it does.
 * Returns why the address is refused, or undefined.
 */
export async function privateUpstreamProblem(baseUrl: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) return isPrivateAddress(host) ? describe(url.hostname, host) : undefined;
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    lookup(host, { all: true }, (error, found) => resolve(error ? [] : found));
  });
  const refused = addresses.find((entry) => isPrivateAddress(entry.address));
  return refused ? describe(url.hostname, refused.address) : undefined;
}

function describe(host: string, address: string): string {
  const resolved = host === address ? '' : ` resolves to ${address}, which`;
  return `${host}${resolved} is a private, loopback, link-local or otherwise non-public address, and BLOCK_PRIVATE_UPSTREAMS is on`;
}

/** A GatewayError, so the HTTP client's error mapping passes it through as it is. */
function privateAddressError(host: string, address: string): GatewayError {
  return new GatewayError('upstream_unreachable', `The upstream address ${describe(host, address)}; the connection was refused.`);
}
