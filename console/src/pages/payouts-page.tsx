import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { dateTime, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';
import { withdrawalStatusName } from '../i18n/status-name.ts';

interface AdminWithdrawal {
  id: string;
  userId: string;
  amountUsd: number;
  status: string;
  payoutTo: string;
  payoutRef: string | null;
  reason: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  createdAt: string;
}

const STATUSES = ['', 'pending', 'approved', 'paid', 'rejected'];
type Decision = 'approve' | 'reject' | 'mark-paid';

/** Rebate withdrawal requests: approve, reject (the amount goes back to the wallet), mark paid. */
export function PayoutsPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const [status, setStatus] = useState('pending');
  const data = useResource(
    async () => (await call<{ data: AdminWithdrawal[] }>(`/api/admin/referral-withdrawals${status ? `?status=${status}` : ''}`, { bearer })).data,
    [bearer, status],
  );
  const action = useSubmit();
  const decide = (entry: AdminWithdrawal, decision: Decision) =>
    action.run(async () => {
      let body: Record<string, string> = {};
      if (decision === 'reject') {
        const reason = window.prompt(t('payouts.reasonPrompt'), '');
        if (reason === null) return;
        body = reason.trim() ? { reason: reason.trim() } : {};
      }
      if (decision === 'mark-paid') {
        const ref = window.prompt(t('payouts.refPrompt'), '');
        if (ref === null) return;
        body = ref.trim() ? { payoutRef: ref.trim() } : {};
      }
      await call(`/api/admin/referral-withdrawals/${entry.id}/${decision}`, { method: 'POST', bearer, body });
      data.reload();
    });
  const button = (entry: AdminWithdrawal, decision: Decision, label: string) => (
    <button type="button" class="small" disabled={action.busy} onClick={() => decide(entry, decision)} data-decision={decision}>
      {t(label)}
    </button>
  );
  return (
    <section>
      <PageHead title={t('payouts.title')} onRefresh={data.reload} />
      <p class="muted">{t('payouts.help')}</p>
      <div class="filters">
        <label>
          {t('payouts.status')}
          <select name="status" value={status} onChange={(event) => setStatus(inputValue(event))}>
            {STATUSES.map((entry) => (
              <option key={entry} value={entry}>
                {entry ? withdrawalStatusName(entry) : t('payouts.any')}
              </option>
            ))}
          </select>
        </label>
      </div>
      {action.error && <ErrorNotice>{action.error}</ErrorNotice>}
      <AsyncView resource={data} what={t('payouts.what')}>
        {(list) =>
          list.length === 0 ? (
            <p class="notice">{t('payouts.none')}</p>
          ) : (
            <table class="table" data-payouts>
              <thead>
                <tr>
                  <th scope="col">{t('payouts.request')}</th>
                  <th scope="col">{t('payouts.user')}</th>
                  <th scope="col">{t('payouts.amount')}</th>
                  <th scope="col">{t('payouts.payoutTo')}</th>
                  <th scope="col">{t('payouts.date')}</th>
                  <th scope="col">{t('payouts.status')}</th>
                  <th scope="col">{t('payouts.decided')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.map((entry) => (
                  <tr key={entry.id} data-withdrawal={entry.id}>
                    <td>
                      <code>{entry.id}</code>
                    </td>
                    <td>{entry.userId}</td>
                    <td>{usd(entry.amountUsd)}</td>
                    <td>{entry.payoutTo}</td>
                    <td>{dateTime(entry.createdAt)}</td>
                    <td data-status>{withdrawalStatusName(entry.status)}</td>
                    <td>
                      {entry.decidedBy ? `${entry.decidedBy} · ${dateTime(entry.decidedAt)}` : ''}
                      {entry.payoutRef ? ` · ${entry.payoutRef}` : ''}
                      {entry.reason ? ` · ${entry.reason}` : ''}
                    </td>
                    <td>
                      {entry.status === 'pending' && button(entry, 'approve', 'payouts.approve')}
                      {(entry.status === 'pending' || entry.status === 'approved') && button(entry, 'mark-paid', 'payouts.markPaid')}
                      {(entry.status === 'pending' || entry.status === 'approved') && button(entry, 'reject', 'payouts.reject')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </AsyncView>
    </section>
  );
}
