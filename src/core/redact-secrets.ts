/** Shorter fragments than this are too common to mean a secret leaked (and would redact ordinary words). */
const MIN_FRAGMENT = 10;
export const REDACTED = '[redacted]';

/**
 * Removes every occurrence of the given secrets from a text, and any run of at least ten
 * characters copied from one of them (an upstream that quotes a truncated or partly masked
 * key — "Incorrect API key provided: sk-abc…xyz" — still leaks part of it). Runs in
 * O(text × secret length), fine for error texts capped at a few kilobytes.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length < MIN_FRAGMENT) {
      if (secret.length > 0) result = result.split(secret).join(REDACTED);
      continue;
    }
    result = result.split(secret).join(REDACTED);
    // Windows of the secret: any hit is grown in both directions to the longest shared run.
    for (let start = 0; start + MIN_FRAGMENT <= secret.length; start += 1) {
      const window = secret.slice(start, start + MIN_FRAGMENT);
      let at = result.indexOf(window);
      while (at !== -1) {
        let from = at;
        let to = at + MIN_FRAGMENT;
        let secretFrom = start;
        let secretTo = start + MIN_FRAGMENT;
        while (from > 0 && secretFrom > 0 && result[from - 1] === secret[secretFrom - 1]) {
          from -= 1;
          secretFrom -= 1;
        }
        while (to < result.length && secretTo < secret.length && result[to] === secret[secretTo]) {
          to += 1;
          secretTo += 1;
        }
        result = result.slice(0, from) + REDACTED + result.slice(to);
        at = result.indexOf(window, from + REDACTED.length);
      }
    }
  }
  return result;
}

/** Control characters (other than tab and newline) and anything past `maxLength` are cut from upstream text shown to clients. */
export function cleanUpstreamText(text: string, maxLength = 1_000): string {
  // eslint-disable-next-line no-control-regex
  const printable = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
  return printable.length > maxLength ? `${printable.slice(0, maxLength)}…` : printable;
}
