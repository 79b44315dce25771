import { randomBytes, randomInt } from 'node:crypto';
import type { RuntimeContext } from './runtime-context.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The production runtime. Ids are a millisecond timestamp, a random tag drawn once per process
 * and a counter: they sort by time, never collide across instances, and cost no system call
 * per request (ids are not secrets; secrets use crypto directly). `random` is Math.random
 * (routing needs speed, not secrecy).
 */
export function createRuntime(): RuntimeContext {
  let processTag = '';
  for (const byte of randomBytes(8)) processTag += ALPHABET[byte % 62];
  let counter = 0;
  return {
    now: Date.now,
    generateId(prefix: string) {
      counter = (counter + 1) % 2_176_782_336; // 36^6: six base-36 digits
      return `${prefix}${Date.now().toString(36)}${processTag}${counter.toString(36).padStart(6, '0')}`;
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
