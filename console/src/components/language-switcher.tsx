import { chooseLanguage, t } from '../i18n/i18n.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../i18n/language.ts';
import { useLanguage } from '../i18n/use-language.ts';

/** The header's language choice; each language is named in itself so a reader finds theirs. */
export function LanguageSwitcher() {
  const language = useLanguage();
  return (
    <select class="language-switcher" aria-label={t('language.label')} value={language} onChange={(event) => chooseLanguage((event.currentTarget as HTMLSelectElement).value as Language)}>
      {LANGUAGES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LANGUAGE_NAMES[code]}
        </option>
      ))}
    </select>
  );
}
