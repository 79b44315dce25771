import { randomBytes, randomInt } from 'node:crypto';
import type { RuntimeContext } from './core/runtime-context.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The production runtime. Ids are a millisecond timestamp plus random base62, so they sort by
 * time and never collide across instances; `random` is Math.random (routing needs speed, not
 * secrecy; secrets use crypto directly).
 */
export function createRuntime(): RuntimeContext {
  return {
    now: Date.now,
    generateId(prefix: string) {
      const bytes = randomBytes(12);
      let suffix = '';
      for (const byte of bytes) suffix += ALPHABET[byte % 62];
      return `${prefix}${Date.now().toString(36)}${suffix}`;
    },
    random: Math.random,
  };
}

/** A fresh random token for the admin API. */
export function generateAdminToken(): string {
  let token = 'sya-';
  for (let index = 0; index < 40; index += 1) token += ALPHABET[randomInt(62)];
  return token;
}
