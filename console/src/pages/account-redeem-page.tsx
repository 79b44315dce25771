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
    if (code.trim() === '') return submission.setError('Paste the code you were given.');
    await submission.run(
      async () => {
        const answer = await accountCall<RedeemAnswer>(props.session, '/redeem', { method: 'POST', body: { code: code.trim() } });
        setCode('');
        if (answer.kind === 'balance') {
          setResult(`Added ${usd(answer.amount ?? 0)} to your wallet${answer.balance !== undefined ? `; it now holds ${usd(answer.balance)}` : ''}.`);
        } else {
          const sub = answer.subscription;
          setResult(`Subscription ${sub?.planName ?? ''} is active${sub?.expiresAt ? ` until ${dateTime(sub.expiresAt)}` : ''}. You can now create keys in its group.`);
        }
      },
      (caught) => (caught instanceof ApiError && caught.code === 'invalid_redemption_code' ? `That code cannot be redeemed: ${caught.message}` : errorMessage(caught)),
    );
  };
  return (
    <section>
      <h1>Redeem a code</h1>
      <form class="card form" onSubmit={submit} style={{ maxWidth: '36rem' }}>
        <label>
          Code
          <input name="code" value={code} autoComplete="off" spellcheck={false} onInput={(event) => setCode(inputValue(event))} />
          <span class="hint">A code adds money to your wallet or starts a subscription. Each code works once.</span>
        </label>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        {result && (
          <p class="notice success" role="status" data-redeem-result>
            {result}{' '}
            <a href="/console/" onClick={(event) => followLink(event, '/')}>
              See your home page
            </a>
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={submission.busy}>
            {submission.busy ? 'Redeeming…' : 'Redeem'}
          </button>
        </div>
      </form>
    </section>
  );
}
