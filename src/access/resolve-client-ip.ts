import type { IncomingHttpHeaders } from 'node:http';
import { createIpMatcher, normalizeIp, parseIp } from './ip-matcher.ts';

export type ClientIpResolver = (socketAddress: string | undefined, headers: IncomingHttpHeaders) => string;

/** The proxy headers a gateway may be told to read (CLIENT_IP_HEADER). */
export const CLIENT_IP_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;
export type ClientIpHeader = (typeof CLIENT_IP_HEADERS)[number];

/**
 * The client's address for IP fences and logs. It is the socket peer, unless that peer is one
 * of the operator's trusted proxies: only then is the one configured header read (default
 * `X-Forwarded-For`; never another one, since a proxy overwrites only the header it sets and
 * passes the others through from the client), right to left, skipping further trusted
 * proxies, and the first address that is not a trusted proxy is the client. With no trusted
 * proxies configured no header is read, so a client cannot talk its way past a fence.
 */
export function createClientIpResolver(trustedProxies: readonly string[], header: ClientIpHeader = 'x-forwarded-for'): ClientIpResolver {
  const trusted = createIpMatcher(trustedProxies);
  return (socketAddress, headers) => {
    const peer = normalizeIp(socketAddress ?? '');
    if (trustedProxies.length === 0 || !trusted(peer)) return peer;
    const chain = forwardedChain(headers, header);
    let client = peer;
    for (let index = chain.length - 1; index >= 0; index -= 1) {
      const hop = chain[index] ?? '';
      // `unknown`, obfuscated identifiers or garbage: stop at the last address we can vouch for.
      if (!parseIp(hop)) return client;
      client = normalizeIp(hop);
      if (!trusted(client)) return client;
    }
    return client;
  };
}

function forwardedChain(headers: IncomingHttpHeaders, header: ClientIpHeader): string[] {
  const value = headers[header];
  // Repeated header lines are one list, in order (RFC 9110 §5.3).
  const text = Array.isArray(value) ? value.join(',') : value;
  if (typeof text !== 'string' || text.trim() === '') return [];
  switch (header) {
    case 'forwarded':
      return text.split(',').map((element) => forNode(element));
    case 'x-real-ip':
      // One address by definition; a list means something upstream appended to it, so only the last counts.
      return [stripPort(text.split(',').at(-1)?.trim() ?? '')];
    case 'x-forwarded-for':
      return text.split(',').map((hop) => stripPort(hop.trim()));
    default: {
      const unreachable: never = header;
      return unreachable;
    }
  }
}

/** `for="[2001:db8::17]:4711";proto=https` → `2001:db8::17`. */
function forNode(element: string): string {
  for (const pair of element.split(';')) {
    const [name = '', ...value] = pair.split('=');
    if (name.trim().toLowerCase() === 'for') return stripPort(value.join('=').trim().replace(/^"|"$/g, ''));
  }
  return '';
}

function stripPort(node: string): string {
  if (node.startsWith('[')) return node.slice(1, node.indexOf(']') === -1 ? undefined : node.indexOf(']'));
  // One colon means v4 with a port; more means a bare v6 address.
  const colons = node.split(':').length - 1;
  return colons === 1 ? node.slice(0, node.indexOf(':')) : node;
}
