import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { t } from '../i18n/i18n.ts';
import { inputValue } from '../lib/input-value.ts';
import type { SignInSecurityApi, TotpEnrolment } from '../lib/sign-in-security.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';

/**
 * TOTP two-factor sign-in (issue 29): enrol (the otpauth address, its secret and the recovery
 * codes are shown once, then a code confirms it) and turn off, which asks for a current code so
 * that someone who borrowed the browser cannot remove the factor.
 */
export function TwoFactorCard(props: { api: SignInSecurityApi }) {
  const status = useResource(() => props.api.twoFactorOn(), [props.api]);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const submission = useSubmit();

  const act = (action: () => Promise<string>) => (event: Event) => {
    event.preventDefault();
    setDone(null);
    void submission.run(async () => {
      const message = await action();
      setCode('');
      setDone(message);
      status.reload();
    });
  };
  const start = act(async () => {
    setEnrolment(await props.api.enrol());
    return t('security.totpScan');
  });
  const confirm = act(async () => {
    await props.api.confirm(code.trim());
    setEnrolment(null);
    return t('security.totpOn');
  });
  const turnOff = act(async () => {
    await props.api.turnOff(code.trim());
    return t('security.totpOff');
  });
  const codeField = (
    <label>
      {t('security.totpCode')}
      <input name="totp-code" inputMode="numeric" autoComplete="one-time-code" value={code} maxLength={64} onInput={(event) => setCode(inputValue(event))} />
    </label>
  );

  return (
    <div class="card">
      <h2>{t('security.twoFactor')}</h2>
      {status.error && <ErrorNotice>{status.error.message}</ErrorNotice>}
      {status.data === true && !enrolment && (
        <form onSubmit={turnOff}>
          <p>{t('security.totpIsOn')}</p>
          {codeField}
          <button type="submit" class="danger" disabled={submission.busy || code.trim() === ''}>
            {t('security.totpTurnOff')}
          </button>
        </form>
      )}
      {status.data === false && !enrolment && (
        <form onSubmit={start}>
          <p class="muted">{t('security.totpIntro')}</p>
          <button type="submit" class="primary" disabled={submission.busy}>
            {t('security.totpEnrol')}
          </button>
        </form>
      )}
      {enrolment && (
        <form onSubmit={confirm}>
          <p>{t('security.totpOnce')}</p>
          <p>
            {t('security.totpAddress')} <code data-testid="otpauth-url">{enrolment.otpauthUrl}</code>
          </p>
          <p>
            {t('security.totpSecret')} <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <p>{t('security.recoveryCodes')}</p>
          <ul class="recovery-codes">
            {enrolment.recoveryCodes.map((entry) => (
              <li key={entry}>
                <code>{entry}</code>
              </li>
            ))}
          </ul>
          {codeField}
          <button type="submit" class="primary" disabled={submission.busy || code.trim() === ''}>
            {t('security.totpConfirm')}
          </button>
        </form>
      )}
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </div>
  );
}
