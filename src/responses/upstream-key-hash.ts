import { createHash } from 'node:crypto';

/** Names an upstream key without storing it: which of a channel's keys holds a conversation. */
export function upstreamKeyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}
