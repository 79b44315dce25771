import { t } from '../i18n/i18n.ts';
import { ApiError } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { passkeysSupported, signInWithPasskey } from '../lib/passkeys.ts';
import type { Session } from '../lib/session.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { ErrorNotice } from '../components/error-notice.tsx';

/** The browser's own refusal (the person cancelled, or the request timed out) in plain words; the gateway's as it said it. */
export function passkeyError(caught: unknown): string {
  if (caught instanceof ApiError) return caught.message;
  if (caught instanceof Error && (caught.name === 'NotAllowedError' || caught.name === 'AbortError')) return t('security.cancelled');
  return errorMessage(caught);
}

/** "Sign in with a passkey" under the password form: an account holder's or a named admin's. */
export function PasskeySignIn(props: { audience: 'account' | 'person'; onSignIn: (session: Session) => void }) {
  const submission = useSubmit();
  if (!passkeysSupported()) return null;
  const start = () =>
    submission.run(async () => {
      props.onSignIn(await signInWithPasskey(props.audience));
    }, passkeyError);
  return (
    <div class="passkey-sign-in">
      <button type="button" onClick={start} disabled={submission.busy}>
        {submission.busy ? t('security.signingIn') : t('security.signIn')}
      </button>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
    </div>
  );
}
