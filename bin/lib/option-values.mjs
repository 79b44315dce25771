import { usageError } from './cli-error.mjs';

/** Readers for option values, so a typo fails here with the option's name, before any request. */

/** @param {Record<string, unknown>} values @param {string} name @returns {string} */
export function required(values, name) {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw usageError(`--${name} is required`);
  return value;
}

/** "a,b , c" → ["a", "b", "c"]; undefined stays undefined. @param {unknown} value @returns {string[] | undefined} */
export function list(value) {
  if (typeof value !== 'string') return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** @param {Record<string, unknown>} values @param {string} name @returns {number | undefined} */
export function number(values, name) {
  const value = values[name];
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(parsed)) {
    throw usageError(`--${name} must be a number, got "${String(value)}"`);
  }
  return parsed;
}

/** "a=b,c=d" → { a: "b", c: "d" }. @param {Record<string, unknown>} values @param {string} name */
export function pairs(values, name) {
  const entries = list(values[name]);
  if (entries === undefined) return undefined;
  /** @type {Record<string, string>} */
  const result = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    if (at <= 0 || at === entry.length - 1) throw usageError(`--${name} takes public=upstream pairs, got "${entry}"`);
    result[entry.slice(0, at).trim()] = entry.slice(at + 1).trim();
  }
  return result;
}

/** Drops undefined fields, so the API applies its own defaults. @param {Record<string, unknown>} object */
export function defined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
