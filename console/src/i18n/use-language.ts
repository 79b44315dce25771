import { useEffect, useState } from 'preact/hooks';
import { currentLanguage, onLanguageChanged } from './i18n.ts';
import type { Language } from './language.ts';

/** The language now shown; the component re-renders when the person switches. */
export function useLanguage(): Language {
  const [language, setLanguage] = useState(currentLanguage);
  useEffect(() => onLanguageChanged(() => setLanguage(currentLanguage())), []);
  return language;
}
