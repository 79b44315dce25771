import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62 * 4 = 248: bytes at or above it are rejected so every character is equally likely. */
const REJECT_FROM = 248;

/** `length` characters of [0-9A-Za-z] from the CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let result = '';
  while (result.length < length) {
    // Ask for a little more than needed: about 3% of bytes are rejected.
    const bytes = randomBytes(Math.ceil((length - result.length) * 1.1) + 4);
    for (const byte of bytes) {
      if (byte >= REJECT_FROM) continue;
      result += ALPHABET[byte % 62];
      if (result.length === length) break;
    }
  }
  return result;
}
