import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { LanguageSwitcher } from '../components/language-switcher.tsx';
import { t } from '../i18n/i18n.ts';
import { ApiError, call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { inputValue } from '../lib/input-value.ts';
import { useSubmit } from '../lib/use-submit.ts';

/**
 * Where the password-reset e-mail's link lands (`/console/reset-password?token=`, issue 29): a
 * new password, sent once with the token; the gateway then ends every session of the account.
 */
export function ResetPasswordPage() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [done, setDone] = useState(false);
  const submission = useSubmit();

  const submit = async (event: Event) => {
    event.preventDefault();
    if (password.length < 8) return submission.setError(t('resetPassword.tooShort'));
    if (password !== again) return submission.setError(t('resetPassword.mismatch'));
    await submission.run(
      async () => {
        await call('/api/account/password-reset/confirm', { method: 'POST', body: { token, password } });
        setDone(true);
      },
      (caught) => (caught instanceof ApiError && caught.code === 'link_invalid' ? t('resetPassword.invalid') : errorMessage(caught)),
    );
  };

  return (
    <main class="login" id="main">
      <div class="login-language">
        <LanguageSwitcher />
      </div>
      <h1>{t('resetPassword.title')}</h1>
      {token === '' ? (
        <ErrorNotice>{t('resetPassword.missing')}</ErrorNotice>
      ) : done ? (
        <div class="card">
          <p role="status">{t('resetPassword.done')}</p>
          <a href="/console/">{t('resetPassword.signIn')}</a>
        </div>
      ) : (
        <form class="card" onSubmit={submit}>
          <label>
            {t('resetPassword.password')}
            <input type="password" name="password" autoComplete="new-password" value={password} onInput={(event) => setPassword(inputValue(event))} required />
          </label>
          <label>
            {t('resetPassword.again')}
            <input type="password" name="again" autoComplete="new-password" value={again} onInput={(event) => setAgain(inputValue(event))} required />
          </label>
          {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
          <button type="submit" class="primary" disabled={submission.busy}>
            {submission.busy ? t('resetPassword.saving') : t('resetPassword.submit')}
          </button>
        </form>
      )}
    </main>
  );
}
