import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { signInAccount } from '../lib/account-api.ts';
import { ApiError, call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { inputValue } from '../lib/input-value.ts';
import { loadKeyHolderView } from '../lib/key-holder.ts';
import type { Session } from '../lib/session.ts';
import { useSubmit } from '../lib/use-submit.ts';

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
  const submission = useSubmit();

  const submit = async (event: Event) => {
    event.preventDefault();
    const withPassword = role === 'account' || role === 'person';
    const value = withPassword ? secret : secret.trim();
    if (withPassword && login.trim() === '') return submission.setError(role === 'person' ? 'Enter your admin name or e-mail.' : 'Enter your email or account name.');
    if (value === '') return submission.setError(role === 'operator' ? 'Enter the admin token.' : role === 'key' ? 'Enter your API key.' : 'Enter your password.');
    await submission.run(
      async () => {
        if (role === 'account') {
          props.onSignIn(await signInAccount(login.trim(), value));
        } else if (role === 'person') {
          const answer = await call<{ admin: { name: string; role: string }; csrfToken: string }>('/api/admin/session', {
            method: 'POST',
            body: { login: login.trim(), password: value },
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
        if (!(caught instanceof ApiError) || caught.status !== 401) return errorMessage(caught);
        if (role === 'account') return 'That email or name and password do not match an enabled account.';
        if (role === 'person') return 'That name or e-mail and password do not match an enabled admin.';
        return role === 'operator'
          ? 'That admin token was not accepted. It is GATEWAY_ADMIN_TOKEN, printed when the gateway first started.'
          : 'That API key was not recognised. Paste the complete key, as it was shown when it was created.';
      },
    );
  };

  const choose = (next: Role) => {
    setRole(next);
    setSecret('');
    submission.setError(null);
  };

  return (
    <main class="login" id="main">
      <h1>Switchyard console</h1>
      {props.sessionEnded && (
        <p class="notice" role="status">
          Your session ended (it expired or you signed out elsewhere). Sign in again.
        </p>
      )}
      <form onSubmit={submit} class="card">
        <fieldset>
          <legend>Sign in as</legend>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'account'} onChange={() => choose('account')} /> Account (email or name + password)
          </label>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'person'} onChange={() => choose('person')} /> Admin (name or e-mail + password)
          </label>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'operator'} onChange={() => choose('operator')} /> Operator (admin token)
          </label>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'key'} onChange={() => choose('key')} /> Key holder (your API key)
          </label>
        </fieldset>
        {(role === 'account' || role === 'person') && (
          <label>
            {role === 'person' ? 'Name or e-mail' : 'Email or name'}
            <input name="login" autoComplete="username" value={login} onInput={(event) => setLogin(inputValue(event))} required />
          </label>
        )}
        <label>
          {role === 'operator' ? 'Admin token' : role === 'key' ? 'API key' : 'Password'}
          <input
            type="password"
            name="secret"
            autoComplete={role === 'account' || role === 'person' ? 'current-password' : 'off'}
            value={secret}
            onInput={(event) => setSecret(inputValue(event))}
            required
          />
        </label>
        <p class="muted small-text">
          {role === 'account' || role === 'person'
            ? 'The gateway keeps you signed in with a cookie scripts cannot read, sent only to this site; it ends when you sign out or after 12 hours.'
            : 'Kept only in this browser tab (session storage) and sent as a Bearer header; never stored in a cookie.'}
        </p>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        <button type="submit" class="primary" disabled={submission.busy}>
          {submission.busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
