import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { accountCall } from '../lib/account-api.ts';
import { dateTime, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';
import { withdrawalStatusName } from '../i18n/status-name.ts';

interface WithdrawalRow {
  id: string;
  amountUsd: number;
  status: string;
  payoutTo: string;
  reason: string | null;
  createdAt: string;
}

type AccountSession = Extract<Session, { role: 'account' }>;

/** Ask to be paid out credited rebates (when the operator allows it), and follow the requests. */
export function AccountWithdrawCard(props: { session: AccountSession; withdrawableUsd: number; minUsd: number; onChange: () => void }) {
  const mine = useResource(async () => (await accountCall<{ data: WithdrawalRow[] }>(props.session, '/referral/withdrawals')).data, [props.session.csrf]);
  const [amount, setAmount] = useState('');
  const [payoutTo, setPayoutTo] = useState('');
  const submission = useSubmit();
  const submit = (event: Event) => {
    event.preventDefault();
    return submission.run(async () => {
      await accountCall(props.session, '/referral/withdrawals', { method: 'POST', body: { amountUsd: Number(amount), payoutTo } });
      setAmount('');
      mine.reload();
      props.onChange();
    });
  };
  return (
    <div class="card" data-withdraw>
      <h2>{t('withdraw.title')}</h2>
      <p>{t('withdraw.available', { amount: usd(props.withdrawableUsd), min: usd(props.minUsd) })}</p>
      <form class="form" onSubmit={submit}>
        <label>
          {t('withdraw.amount')}
          <input name="withdrawAmount" type="number" min="0" step="0.01" value={amount} onInput={(event) => setAmount(inputValue(event))} />
        </label>
        <label>
          {t('withdraw.payoutTo')}
          <input name="payoutTo" value={payoutTo} autoComplete="off" onInput={(event) => setPayoutTo(inputValue(event))} />
        </label>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        <div class="actions">
          <button type="submit" disabled={submission.busy}>
            {t('withdraw.ask')}
          </button>
        </div>
      </form>
      {mine.data && mine.data.length > 0 && (
        <>
          <h3>{t('withdraw.mine')}</h3>
          <ul class="sub-list" data-withdrawals>
            {mine.data.map((entry) => (
              <li key={entry.id} data-withdrawal={entry.id}>
                {dateTime(entry.createdAt)} · {usd(entry.amountUsd)} · {entry.payoutTo} · <span data-status>{withdrawalStatusName(entry.status)}</span>
                {entry.reason ? t('withdraw.reason', { reason: entry.reason }) : ''}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
