import { createHash } from 'node:crypto';

/**
 * SHA-256 hex of a client API key. Keys are long random strings, so a fast unsalted hash is
 * enough, and it lets authentication find the key by an indexed lookup.
 */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}
