/** The languages the console speaks; the first is the fallback. */
export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in itself, for the switcher (a reader looks for their own language's name). */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', 'zh-CN': '简体中文' };

export const LANGUAGE_STORAGE_KEY = 'switchyard.language';

/** A tag like "zh", "zh-Hans-CN", "ZH-cn" or "en-GB" → the language we speak for it, or null. */
export function matchLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase();
  if (lower === '') return null;
  // Traditional Chinese readers (zh-TW, zh-HK, zh-Hant) are not served Simplified by guess.
  if (lower === 'zh' || lower.startsWith('zh-cn') || lower.startsWith('zh-hans') || lower === 'zh-sg') return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return null;
}

/**
 * The contract's order: `?lang=en|zh-CN` on the address, then the person's saved choice, then
 * the browser's languages (navigator.languages mirrors its Accept-Language), then English.
 */
export function pickLanguage(sources: { query: string | null; saved: string | null; accepted: readonly string[] }): Language {
  const fromQuery = matchLanguage(sources.query);
  if (fromQuery) return fromQuery;
  const fromSaved = matchLanguage(sources.saved);
  if (fromSaved) return fromSaved;
  for (const tag of sources.accepted) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return 'en';
}
