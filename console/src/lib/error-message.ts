import { explainErrorCode } from '../i18n/api-errors.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { ApiError } from './api.ts';

/**
 * What to show for a failed call or check: the error's own message, or the thrown value as text.
 * The gateway words its errors in English; a reader in another language gets the code's
 * explanation in their language first, with the gateway's message after it.
 */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (currentLanguage() === 'en' || !(error instanceof ApiError)) return message;
  const explained = explainErrorCode(error.code);
  return explained ? `${explained}（${message}）` : message;
}
