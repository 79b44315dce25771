/** Enough of a key to recognise it, never enough to use it. */
export function maskKey(key: string): string {
  return key.length <= 12 ? '••••••••' : `${key.slice(0, 6)}…${key.slice(-4)}`;
}
