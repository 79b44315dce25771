import { randomBase62 } from './random-base62.ts';

/** A new client API key: `sk-` and 48 base62 characters (about 285 bits). */
export function generateApiKey(): string {
  return `sk-${randomBase62(48)}`;
}
