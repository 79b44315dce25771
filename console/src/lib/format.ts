export const DASH = '—';

export function usd(value: number | null | undefined, unlimited = DASH): string {
  if (value === null || value === undefined) return unlimited;
  if (value !== 0 && Math.abs(value) < 0.01) return `$${value.toFixed(6).replace(/0+$/, '')}`;
  return `$${value.toFixed(2)}`;
}

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? DASH : value.toLocaleString('en-US');
}

export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  const fraction = value > 1 ? value / 100 : value;
  return `${(fraction * 100).toFixed(fraction === 1 ? 0 : 1)} %`;
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
}

export function list(values: readonly string[] | null | undefined, empty = DASH): string {
  return values && values.length > 0 ? values.join(', ') : empty;
}

export function splitList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Leading or trailing spaces make a different model name: quote such a name and say so. */
export function visibleName(name: string | null | undefined): string {
  if (name === null || name === undefined) return DASH;
  return name.trim() === name ? name : `${JSON.stringify(name)} (extra spaces)`;
}

/** A window length in words: "1 min", "5 min", "30 s". */
export function windowLength(milliseconds: number): string {
  return milliseconds >= 60_000 ? `${Math.round(milliseconds / 60_000)} min` : `${Math.round(milliseconds / 1000)} s`;
}

/** How long ago, in words: "just now", "42 s ago", "5 min ago", "3 h ago". */
export function ago(time: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 90) return `${seconds} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}
