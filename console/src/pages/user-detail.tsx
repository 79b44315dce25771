import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { indexById, moneyInput, refName } from '../lib/account-format.ts';
import { type AdminUserView as User } from '../../../src/domain/account-admin-api.ts';
import type { AdminApi } from '../lib/accounts-admin.ts';
import { dateTime, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { ownedBy, type UsersData } from './users-page.tsx';
import { statusName } from '../i18n/status-name.ts';
import { t } from '../i18n/i18n.ts';

/** One user: wallet with top-up and its audit trail, keys, subscriptions. */
export function UserDetail(props: { api: AdminApi; user: User; data: UsersData; onChanged: () => void }) {
  const { api, user, data } = props;
  const trail = useResource(() => api.topUps(user.id), [user.id]);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const submission = useSubmit();
  const plans = indexById(data.plans);
  const keys = data.keys.filter((key) => ownedBy(key.user, user));
  const subscriptions = data.subscriptions.filter((subscription) => ownedBy(subscription.user, user));

  const topUp = async (event: Event) => {
    event.preventDefault();
    setDone(null);
    const value = moneyInput(amount);
    if (value === undefined || !Number.isFinite(value) || value === 0) return submission.setError(t('userDetail.badAmount'));
    if (note.trim() === '') return submission.setError(t('userDetail.needNote'));
    await submission.run(async () => {
      const answer = await api.topUp(user.id, value, note.trim());
      setDone(t(value > 0 ? 'userDetail.added' : 'userDetail.took', { amount: usd(Math.abs(value)), balance: usd(answer.user.balance) }));
      setAmount('');
      setNote('');
      trail.reload();
      props.onChanged();
    });
  };

  return (
    <div class="stack">
      <dl class="facts">
        <dt>{t('userDetail.email')}</dt>
        <dd>{user.email ?? t('userDetail.none')}</dd>
        <dt>{t('userDetail.wallet')}</dt>
        <dd data-wallet>{usd(user.balance)}</dd>
        <dt>{t('userDetail.state')}</dt>
        <dd>{user.enabled ? t('status.enabled') : t('status.disabled')}</dd>
        <dt>{t('userDetail.id')}</dt>
        <dd>
          <code>{user.id}</code>
        </dd>
      </dl>
      <form class="form card" onSubmit={topUp} aria-label={t('userDetail.topUpLabel')}>
        <h3>{t('userDetail.topUp')}</h3>
        <div class="row wrap">
          <label>
            {t('userDetail.amount')}
            <input name="amount" type="number" step="0.01" value={amount} onInput={(event) => setAmount(inputValue(event))} />
          </label>
          <label>
            {t('userDetail.note')}
            <input name="note" value={note} maxLength={500} onInput={(event) => setNote(inputValue(event))} placeholder={t('userDetail.notePlaceholder')} />
          </label>
        </div>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        {done && (
          <p class="notice success" role="status">
            {done}
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={submission.busy}>
            {submission.busy ? t('userDetail.saving') : t('userDetail.apply')}
          </button>
        </div>
      </form>
      <div>
        <h3>{t('userDetail.trail')}</h3>
        {trail.error ? (
          <ErrorNotice>{t('userDetail.couldNotLoad', { message: trail.error.message })}</ErrorNotice>
        ) : trail.data === undefined ? (
          <p class="muted">{t('userDetail.loading')}</p>
        ) : trail.data.length === 0 ? (
          <p class="muted">{t('userDetail.noTrail')}</p>
        ) : (
          <ul class="sub-list" data-audit>
            {trail.data.map((entry) => (
              <li key={entry.id}>
                <strong>{entry.amount > 0 ? '+' : '−'}{usd(Math.abs(entry.amount))}</strong> · {entry.note}
                <div class="small-text muted">
                  {dateTime(entry.time)}
                  {entry.balanceAfter !== null && t('userDetail.walletAfter', { amount: usd(entry.balanceAfter) })}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3>{t('userDetail.keys')}</h3>
        {keys.length === 0 ? (
          <p class="muted">{t('userDetail.noKeys')}</p>
        ) : (
          <ul class="sub-list">
            {keys.map((key) => (
              <li key={key.id}>
                <strong>{key.name}</strong> <code>{key.keyHint}</code>
                {t('userDetail.keyLine', { group: key.group, spent: usd(key.spent) })}
                {!key.enabled && t('userDetail.disabled')}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3>{t('userDetail.subscriptions')}</h3>
        {subscriptions.length === 0 ? (
          <p class="muted">{t('userDetail.noSubscriptions')}</p>
        ) : (
          <ul class="sub-list">
            {subscriptions.map((subscription) => (
              <li key={subscription.id}>
                <strong>{refName(subscription.plan, plans)}</strong> ({refName(subscription.group)}) · {statusName(subscription.status)} · {t('userDetail.until', { time: dateTime(subscription.expiresAt) })}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
