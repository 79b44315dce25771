import { hash } from 'node:crypto';

/**
 * SHA-256 hex of a client API key. Keys are long random strings, so a fast unsalted hash is
 * enough, and it lets authentication find the key by an indexed lookup. The one-shot
 * `crypto.hash` (a string is hashed as UTF-8) costs a third of a `createHash` object per call,
 * and every generation request hashes its key.
 */
export function hashApiKey(apiKey: string): string {
  return hash('sha256', apiKey, 'hex');
}
