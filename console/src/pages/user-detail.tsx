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
    if (value === undefined || !Number.isFinite(value) || value === 0) return submission.setError('Enter a non-zero amount in USD: positive adds to the wallet, negative takes away.');
    if (note.trim() === '') return submission.setError('Say why in the note: it is kept in the audit trail.');
    await submission.run(async () => {
      const answer = await api.topUp(user.id, value, note.trim());
      setDone(`${value > 0 ? 'Added' : 'Took'} ${usd(Math.abs(value))}; the wallet is now ${usd(answer.user.balance)}.`);
      setAmount('');
      setNote('');
      trail.reload();
      props.onChanged();
    });
  };

  return (
    <div class="stack">
      <dl class="facts">
        <dt>Email</dt>
        <dd>{user.email ?? 'none'}</dd>
        <dt>Wallet</dt>
        <dd data-wallet>{usd(user.balance)}</dd>
        <dt>State</dt>
        <dd>{user.enabled ? 'enabled' : 'disabled'}</dd>
        <dt>Id</dt>
        <dd>
          <code>{user.id}</code>
        </dd>
      </dl>
      <form class="form card" onSubmit={topUp} aria-label="Top up the wallet">
        <h3>Top up or correct the wallet</h3>
        <div class="row wrap">
          <label>
            Amount (USD, signed)
            <input name="amount" type="number" step="0.01" value={amount} onInput={(event) => setAmount(inputValue(event))} />
          </label>
          <label>
            Note
            <input name="note" value={note} maxLength={500} onInput={(event) => setNote(inputValue(event))} placeholder="Invoice 2026-114 paid" />
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
            {submission.busy ? 'Saving…' : 'Apply'}
          </button>
        </div>
      </form>
      <div>
        <h3>Audit trail</h3>
        {trail.error ? (
          <ErrorNotice>Could not load the audit trail: {trail.error.message}</ErrorNotice>
        ) : trail.data === undefined ? (
          <p class="muted">Loading…</p>
        ) : trail.data.length === 0 ? (
          <p class="muted">No manual top-ups or corrections yet.</p>
        ) : (
          <ul class="sub-list" data-audit>
            {trail.data.map((entry) => (
              <li key={entry.id}>
                <strong>{entry.amount > 0 ? '+' : '−'}{usd(Math.abs(entry.amount))}</strong> · {entry.note}
                <div class="small-text muted">
                  {dateTime(entry.time)}
                  {entry.balanceAfter !== null && ` · wallet after: ${usd(entry.balanceAfter)}`}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3>Keys</h3>
        {keys.length === 0 ? (
          <p class="muted">No keys. The user can create their own in the portal.</p>
        ) : (
          <ul class="sub-list">
            {keys.map((key) => (
              <li key={key.id}>
                <strong>{key.name}</strong> <code>{key.keyHint}</code> · group {key.group} · spent {usd(key.spent)}
                {!key.enabled && ' · disabled'}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3>Subscriptions</h3>
        {subscriptions.length === 0 ? (
          <p class="muted">None. Grant one on the Subscriptions page, or give them a subscription code.</p>
        ) : (
          <ul class="sub-list">
            {subscriptions.map((subscription) => (
              <li key={subscription.id}>
                <strong>{refName(subscription.plan, plans)}</strong> ({refName(subscription.group)}) · {subscription.status} · until {dateTime(subscription.expiresAt)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
