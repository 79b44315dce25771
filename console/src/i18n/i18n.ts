import i18next from 'i18next';
import { en } from './en.ts';
import { LANGUAGE_STORAGE_KEY, LANGUAGES, type Language, matchLanguage, pickLanguage } from './language.ts';
import { zhCN } from './zh-CN.ts';

/**
 * The browser globals this module reads, typed here: the console's pure helpers that format
 * (lib/format.ts) are also type-checked and tested under Node, where none of these exist.
 */
const browser = globalThis as unknown as {
  location?: { search: string; href: string };
  navigator?: { languages?: readonly string[]; language: string };
  localStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  document?: { documentElement: { lang: string } };
  history?: { state: unknown; replaceState(state: unknown, unused: string, url: URL): void };
};

function setDocumentLanguage(language: string): void {
  if (browser.document) browser.document.documentElement.lang = language;
}

function savedLanguage(): string | null {
  try {
    return browser.localStorage?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
  } catch {
    return null; // storage refused (private mode, policy): fall through to the browser's languages
  }
}

function initialLanguage(): Language {
  // Outside a browser (the console's pure helpers run under Node in tests) there is nothing to read.
  const { location, navigator } = browser;
  if (!location || !navigator) return 'en';
  return pickLanguage({ query: new URLSearchParams(location.search).get('lang'), saved: savedLanguage(), accepted: navigator.languages ?? [navigator.language] });
}

// Synchronous init: the catalogues are bundled, so the first render already speaks the language.
i18next.init({
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
  initAsync: false,
  interpolation: { escapeValue: false }, // Preact escapes text itself
  returnNull: false,
});
setDocumentLanguage(i18next.language);

/** The one way a page says something: a catalogue key with its values, e.g. t('keys.created', { name }). */
export function t(key: string, values?: Record<string, unknown>): string {
  return String(i18next.t(key, values as never));
}

export function currentLanguage(): Language {
  return matchLanguage(i18next.language) ?? 'en';
}

/** The person's choice: saved for next time, and every subscriber (the app root) re-renders. */
export function chooseLanguage(language: Language): void {
  try {
    browser.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // not saved: the choice still holds for this page
  }
  // A ?lang= on the address would win again on reload; the person's explicit choice replaces it.
  if (browser.location && browser.history) {
    const url = new URL(browser.location.href);
    if (url.searchParams.has('lang')) {
      url.searchParams.delete('lang');
      browser.history.replaceState(browser.history.state, '', url);
    }
  }
  void i18next.changeLanguage(language);
  setDocumentLanguage(language);
}

export function onLanguageChanged(listener: (language: string) => void): () => void {
  i18next.on('languageChanged', listener);
  return () => i18next.off('languageChanged', listener);
}
