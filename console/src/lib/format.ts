import { currentLanguage, t } from '../i18n/i18n.ts';

export const DASH = '—';

/** Intl locales per console language: English keeps day-month-year dates and US digit grouping. */
const DATE_LOCALE = { en: 'en-GB', 'zh-CN': 'zh-CN' } as const;
const NUMBER_LOCALE = { en: 'en-US', 'zh-CN': 'zh-CN' } as const;
export const numberLocale = (): string => NUMBER_LOCALE[currentLanguage()];

/** Prices are in USD in every language; only the digits and the sign's place follow the locale. */
export function usd(value: number | null | undefined, unlimited = DASH): string {
  if (value === null || value === undefined) return unlimited;
  const small = value !== 0 && Math.abs(value) < 0.01;
  const text = new Intl.NumberFormat(numberLocale(), {
    style: 'currency',
    currency: 'USD',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: small ? 0 : 2,
    maximumFractionDigits: small ? 6 : 2,
  }).format(value);
  return text;
}

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? DASH : value.toLocaleString(numberLocale());
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
  return date.toLocaleString(DATE_LOCALE[currentLanguage()], { dateStyle: 'medium', timeStyle: 'medium' });
}

export function list(values: readonly string[] | null | undefined, empty = DASH): string {
  return values && values.length > 0 ? values.join(t('common.listSeparator')) : empty;
}

export function splitList(text: string): string[] {
  return text
    .split(/[\n,，、]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Leading or trailing spaces make a different model name: quote such a name and say so. */
export function visibleName(name: string | null | undefined): string {
  if (name === null || name === undefined) return DASH;
  return name.trim() === name ? name : `${JSON.stringify(name)} ${t('common.extraSpaces')}`;
}

/** A window length in words: "1 min", "5 min", "30 s". */
export function windowLength(milliseconds: number): string {
  return milliseconds >= 60_000 ? t('time.minutes', { count: Math.round(milliseconds / 60_000) }) : t('time.seconds', { count: Math.round(milliseconds / 1000) });
}

/** How long ago, in words: "just now", "42 s ago", "5 min ago", "3 h ago". */
export function ago(time: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 5) return t('time.justNow');
  if (seconds < 90) return t('time.secondsAgo', { count: seconds });
  if (seconds < 5400) return t('time.minutesAgo', { count: Math.round(seconds / 60) });
  return t('time.hoursAgo', { count: Math.round(seconds / 3600) });
}
