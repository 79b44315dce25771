import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { signInAccount } from '../lib/account-api.ts';
import { ApiError, call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { inputValue } from '../lib/input-value.ts';
import { loadKeyHolderView } from '../lib/key-holder.ts';
import type { Session } from '../lib/session.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { LanguageSwitcher } from '../components/language-switcher.tsx';
import { t } from '../i18n/i18n.ts';
import { PasskeySignIn } from './passkey-sign-in.tsx';

/** How one signs in: a named admin (`person`) ends up an operator session riding on the console cookie. */
type Role = Session['role'] | 'person';

/**
 * Four ways in: an account (email or name + password; the gateway sets an HttpOnly session
 * cookie), a named admin (name or e-mail + password; the console's own cookie), the operator's
 * admin token, or a key holder's own API key (read-only).
 */
export function LoginPage(props: { onSignIn: (session: Session) => void; sessionEnded?: boolean }) {
  const [role, setRole] = useState<Role>('account');
  const [secret, setSecret] = useState('');
  const [login, setLogin] = useState('');
  // Set once the gateway answers totp_required: the password matched and a code is wanted too.
  const [needsCode, setNeedsCode] = useState(false);
  const [totp, setTotp] = useState('');
  const submission = useSubmit();

  const submit = async (event: Event) => {
    event.preventDefault();
    const withPassword = role === 'account' || role === 'person';
    const value = withPassword ? secret : secret.trim();
    if (withPassword && login.trim() === '') return submission.setError(role === 'person' ? t('login.needAdminLogin') : t('login.needAccountLogin'));
    if (value === '') return submission.setError(role === 'operator' ? t('login.needToken') : role === 'key' ? t('login.needKey') : t('login.needPassword'));
    const code = needsCode && totp.trim() !== '' ? { totp: totp.trim() } : {};
    await submission.run(
      async () => {
        if (role === 'account') {
          props.onSignIn(await signInAccount(login.trim(), value, code.totp));
        } else if (role === 'person') {
          const answer = await call<{ admin: { name: string; role: string }; csrfToken: string }>('/api/admin/session', {
            method: 'POST',
            body: { login: login.trim(), password: value, ...code },
            csrf: '',
          });
          props.onSignIn({ role: 'operator', token: '', admin: { name: answer.admin.name, role: answer.admin.role, csrf: answer.csrfToken } });
        } else if (role === 'operator') {
          await call('/api/admin/groups', { bearer: value });
          props.onSignIn({ role: 'operator', token: value });
        } else {
          await loadKeyHolderView(value);
          props.onSignIn({ role: 'key', key: value });
        }
      },
      (caught) => {
        if (caught instanceof ApiError && caught.status === 429) return caught.message;
        if (caught instanceof ApiError && caught.code === 'totp_required') {
          setNeedsCode(true);
          return t('security.codeNeeded');
        }
        if (!(caught instanceof ApiError) || caught.status !== 401) return errorMessage(caught);
        if (role === 'account') return t('login.badAccount');
        if (role === 'person') return t('login.badAdmin');
        return role === 'operator'
          ? t('login.badToken')
          : t('login.badKey');
      },
    );
  };

  const choose = (next: Role) => {
    setRole(next);
    setSecret('');
    setNeedsCode(false);
    setTotp('');
    submission.setError(null);
  };

  return (
    <main class="login" id="main">
      <div class="login-language">
        <LanguageSwitcher />
      </div>
      <h1>{t('login.title')}</h1>
      {props.sessionEnded && (
        <p class="notice" role="status">
          {t('login.sessionEnded')}
        </p>
      )}
      <form onSubmit={submit} class="card">
        <fieldset>
          <legend>{t('login.signInAs')}</legend>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'account'} onChange={() => choose('account')} /> {t('login.asAccount')}
          </label>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'person'} onChange={() => choose('person')} /> {t('login.asPerson')}
          </label>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'operator'} onChange={() => choose('operator')} /> {t('login.asOperator')}
          </label>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'key'} onChange={() => choose('key')} /> {t('login.asKey')}
          </label>
        </fieldset>
        {(role === 'account' || role === 'person') && (
          <label>
            {role === 'person' ? t('login.nameOrEmail') : t('login.emailOrName')}
            <input name="login" autoComplete="username" value={login} onInput={(event) => setLogin(inputValue(event))} required />
          </label>
        )}
        <label>
          {role === 'operator' ? t('login.adminToken') : role === 'key' ? t('login.apiKey') : t('login.password')}
          <input
            type="password"
            name="secret"
            autoComplete={role === 'account' || role === 'person' ? 'current-password' : 'off'}
            value={secret}
            onInput={(event) => setSecret(inputValue(event))}
            required
          />
        </label>
        {needsCode && (role === 'account' || role === 'person') && (
          <label>
            {t('security.signInCode')}
            <input name="totp" inputMode="numeric" autoComplete="one-time-code" value={totp} maxLength={64} onInput={(event) => setTotp(inputValue(event))} />
          </label>
        )}
        <p class="muted small-text">
          {role === 'account' || role === 'person'
            ? t('login.cookieNote')
            : t('login.bearerNote')}
        </p>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        <button type="submit" class="primary" disabled={submission.busy}>
          {submission.busy ? t('login.checking') : t('login.signIn')}
        </button>
        {(role === 'account' || role === 'person') && <PasskeySignIn key={role} audience={role} onSignIn={props.onSignIn} />}
      </form>
    </main>
  );
}
