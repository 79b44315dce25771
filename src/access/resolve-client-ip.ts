import type { IncomingHttpHeaders } from 'node:http';
import { createIpMatcher, normalizeIp, parseIp } from './ip-matcher.ts';

export type ClientIpResolver = (socketAddress: string | undefined, headers: IncomingHttpHeaders) => string;

/**
 * The client's address for IP fences and logs. It is the socket peer, unless that peer is one
 * of the operator's trusted proxies: only then are `Forwarded` (preferred) or
 * `X-Forwarded-For` read, right to left, skipping further trusted proxies, and the first
 * address that is not a trusted proxy is the client. With no trusted proxies configured the
 * headers are never read, so a client cannot talk its way past a fence.
 */
export function createClientIpResolver(trustedProxies: readonly string[]): ClientIpResolver {
  const trusted = createIpMatcher(trustedProxies);
  return (socketAddress, headers) => {
    const peer = normalizeIp(socketAddress ?? '');
    if (trustedProxies.length === 0 || !trusted(peer)) return peer;
    const chain = forwardedChain(headers);
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

function forwardedChain(headers: IncomingHttpHeaders): string[] {
  const forwarded = headers.forwarded;
  if (typeof forwarded === 'string' && forwarded.trim() !== '') {
    return forwarded.split(',').map((element) => forNode(element));
  }
  const xff = headers['x-forwarded-for'];
  const text = Array.isArray(xff) ? xff.join(',') : xff;
  if (typeof text !== 'string' || text.trim() === '') return [];
  return text.split(',').map((hop) => stripPort(hop.trim()));
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
