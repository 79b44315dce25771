import i18next from 'i18next';
import { t } from './i18n.ts';

/**
 * What an API error code means, in the reader's language. The gateway's own messages stay
 * English for the tools that parse them; the console shows this explanation beside the code.
 */
export function explainErrorCode(code: string | null | undefined): string | null {
  if (!code || !/^[a-z_]+$/.test(code) || !i18next.exists(`apiErrors.${code}`)) return null;
  return t(`apiErrors.${code}`);
}
