import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { ApiError, call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { inputValue } from '../lib/input-value.ts';
import { loadKeyHolderView } from '../lib/key-holder.ts';
import type { Session } from '../lib/session.ts';
import { useSubmit } from '../lib/use-submit.ts';

/** Two ways in: the operator's admin token, or a key holder's own API key (read-only). */
export function LoginPage(props: { onSignIn: (session: Session) => void }) {
  const [role, setRole] = useState<'operator' | 'key'>('operator');
  const [secret, setSecret] = useState('');
  const submission = useSubmit();

  const submit = async (event: Event) => {
    event.preventDefault();
    const value = secret.trim();
    if (value === '') return submission.setError(role === 'operator' ? 'Enter the admin token.' : 'Enter your API key.');
    await submission.run(
      async () => {
        if (role === 'operator') {
          await call('/api/admin/groups', { bearer: value });
          props.onSignIn({ role: 'operator', token: value });
        } else {
          await loadKeyHolderView(value);
          props.onSignIn({ role: 'key', key: value });
        }
      },
      (caught) =>
        caught instanceof ApiError && caught.status === 401
          ? role === 'operator'
            ? 'That admin token was not accepted. It is GATEWAY_ADMIN_TOKEN, printed when the gateway first started.'
            : 'That API key was not recognised. Paste the complete key, as it was shown when it was created.'
          : errorMessage(caught),
    );
  };

  return (
    <main class="login" id="main">
      <h1>Switchyard console</h1>
      <form onSubmit={submit} class="card">
        <fieldset>
          <legend>Sign in as</legend>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'operator'} onChange={() => setRole('operator')} /> Operator (admin token)
          </label>
          <label class="inline">
            <input type="radio" name="role" checked={role === 'key'} onChange={() => setRole('key')} /> Key holder (your API key)
          </label>
        </fieldset>
        <label>
          {role === 'operator' ? 'Admin token' : 'API key'}
          <input
            type="password"
            name="secret"
            autoComplete="off"
            value={secret}
            onInput={(event) => setSecret(inputValue(event))}
            required
          />
        </label>
        <p class="muted small-text">
          Kept only in this browser tab (session storage) and sent as a Bearer header; never stored in a cookie.
        </p>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        <button type="submit" class="primary" disabled={submission.busy}>
          {submission.busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
