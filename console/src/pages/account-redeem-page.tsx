import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { accountCall } from '../lib/account-api.ts';
import { ApiError } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { dateTime, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { followLink } from '../lib/router.ts';
import type { Session } from '../lib/session.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

interface RedeemAnswer {
  kind: 'balance' | 'subscription';
  amount?: number;
  balance?: number;
  subscription?: { planName?: string; plan?: unknown; expiresAt?: string; group?: unknown };
}

/** Redeem a code: wallet credit or a subscription, with what it did. */
export function AccountRedeemPage(props: { session: Extract<Session, { role: 'account' }> }) {
  const [code, setCode] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const submission = useSubmit();
  const submit = async (event: Event) => {
    event.preventDefault();
    setResult(null);
    if (code.trim() === '') return submission.setError(t('redeem.paste'));
    await submission.run(
      async () => {
        const answer = await accountCall<RedeemAnswer>(props.session, '/redeem', { method: 'POST', body: { code: code.trim() } });
        setCode('');
        if (answer.kind === 'balance') {
          setResult(answer.balance !== undefined ? t('redeem.addedNow', { amount: usd(answer.amount ?? 0), balance: usd(answer.balance) }) : t('redeem.added', { amount: usd(answer.amount ?? 0) }));
        } else {
          const sub = answer.subscription;
          setResult(sub?.expiresAt ? t('redeem.subscribedUntil', { plan: sub?.planName ?? '', time: dateTime(sub.expiresAt) }) : t('redeem.subscribed', { plan: sub?.planName ?? '' }));
        }
      },
      (caught) => (caught instanceof ApiError && caught.code === 'invalid_redemption_code' ? t('redeem.refused', { message: caught.message }) : errorMessage(caught)),
    );
  };
  return (
    <section>
      <h1>{t('redeem.title')}</h1>
      <form class="card form" onSubmit={submit} style={{ maxWidth: '36rem' }}>
        <label>
          {t('redeem.code')}
          <input name="code" value={code} autoComplete="off" spellcheck={false} onInput={(event) => setCode(inputValue(event))} />
          <span class="hint">{t('redeem.hint')}</span>
        </label>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        {result && (
          <p class="notice success" role="status" data-redeem-result>
            {result}{' '}
            <a href="/console/" onClick={(event) => followLink(event, '/')}>
              {t('redeem.seeHome')}
            </a>
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={submission.busy}>
            {submission.busy ? t('redeem.redeeming') : t('redeem.redeem')}
          </button>
        </div>
      </form>
    </section>
  );
}
