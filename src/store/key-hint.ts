/** A non-secret hint for lists: `sk-abcd…wxyz`. Short keys show less so the hint never reveals most of them. */
export function keyHint(apiKey: string): string {
  const prefix = apiKey.startsWith('sk-') ? 'sk-' : '';
  const body = apiKey.slice(prefix.length);
  if (body.length >= 16) return `${prefix}${body.slice(0, 4)}…${body.slice(-4)}`;
  if (body.length >= 8) return `${prefix}${body.slice(0, 2)}…${body.slice(-2)}`;
  return `${prefix}…`;
}
