import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { Drawer } from '../components/drawer.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { PageHead } from '../components/page-head.tsx';
import { moneyInput } from '../lib/account-format.ts';
import { accountCall, loadAccount, loadAccountKeys } from '../lib/account-api.ts';
import { type PortalKey as AccountKey, type PortalAccountView as AccountView } from '../../../src/domain/account-portal-api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { dateTime, list, splitList, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';

type AccountSession = Extract<Session, { role: 'account' }>;
const CAPS = [
  ['dailySpend', 'Daily spend cap (USD)'],
  ['weeklySpend', 'Weekly spend cap (USD)'],
  ['monthlySpend', 'Monthly spend cap (USD)'],
] as const;

/** The account's own keys: create (shown once), revoke, and each key's spend caps and IP fence. */
export function AccountKeysPage(props: { session: AccountSession }) {
  const data = useResource(async () => {
    const [account, keys] = await Promise.all([loadAccount(props.session), loadAccountKeys(props.session)]);
    return { account, keys };
  }, [props.session.csrf]);
  const [panel, setPanel] = useState<{ mode: 'create' } | { mode: 'edit'; key: AccountKey } | null>(null);
  const [secret, setSecret] = useState<{ value: string; name: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const revoke = async (key: AccountKey) => {
    if (!confirm(`Revoke key "${key.name}"? Clients using it are refused at once; this cannot be undone.`)) return;
    try {
      await accountCall(props.session, `/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' });
      setMessage(`Key ${key.name} revoked.`);
      data.reload();
    } catch (error) {
      setMessage(`Could not revoke ${key.name}: ${errorMessage(error)}`);
    }
  };

  return (
    <section>
      <PageHead title="Keys" onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setPanel({ mode: 'create' })}>
          Create key
        </button>
      </PageHead>
      {secret && (
        <div class="notice secret" role="alert" data-secret-panel>
          <p>
            <strong>Key “{secret.name}” created.</strong> Copy it now: it is shown this once and cannot be shown again.
          </p>
          <div class="secret-line">
            <code data-secret>{secret.value}</code>
            <CopyButton text={secret.value} label="Copy key" />
          </div>
          <button type="button" class="small" onClick={() => setSecret(null)}>
            I have copied it — hide
          </button>
        </div>
      )}
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what="your keys">
        {({ account, keys }) => (
          <>
            {keys.length === 0 ? (
              <p class="notice">
                No keys yet.{' '}
                {account.groups.length === 0
                  ? 'You have no active subscription and the operator offers no default group, so there is nothing a key could use yet: redeem a code first.'
                  : 'Create one and paste it into your client.'}
              </p>
            ) : (
              <div class="table-wrap">
                <table class="stacked">
                  <caption class="visually-hidden">Your keys</caption>
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">Group</th>
                      <th scope="col" class="num">Spent</th>
                      <th scope="col">Spend caps</th>
                      <th scope="col">IP fence</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {keys.map((key) => (
                      <tr key={key.id} data-key={key.name}>
                        <td data-label="Key">
                          <strong>{key.name}</strong>
                          <div class="small-text muted">
                            <code>{key.keyHint}</code> · created {dateTime(key.createdAt)}
                          </div>
                        </td>
                        <td data-label="Group">{key.group}</td>
                        <td class="num" data-label="Spent">
                          {usd(key.spent)}
                        </td>
                        <td class="small-text" data-label="Spend caps">
                          {capsText(key)}
                        </td>
                        <td class="small-text" data-label="IP fence">
                          {list(key.allowedIps, 'any address')}
                        </td>
                        <td>
                          <div class="actions">
                            <button type="button" class="small" onClick={() => setPanel({ mode: 'edit', key })}>
                              Limits of {key.name}
                            </button>
                            <button type="button" class="small danger" onClick={() => revoke(key)}>
                              Revoke
                            </button>
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {panel && (
              <Drawer title={panel.mode === 'create' ? 'Create a key' : `Limits of key ${panel.key.name}`} onClose={() => setPanel(null)}>
                <AccountKeyForm
                  session={props.session}
                  account={account}
                  {...(panel.mode === 'edit' ? { apiKey: panel.key } : {})}
                  onCancel={() => setPanel(null)}
                  onSaved={(created) => {
                    setPanel(null);
                    if (created) {
                      setSecret(created);
                      setMessage(null);
                    } else setMessage('Key limits saved.');
                    data.reload();
                  }}
                />
              </Drawer>
            )}
          </>
        )}
      </AsyncView>
    </section>
  );
}

function capsText(key: AccountKey): string {
  const parts = CAPS.filter(([field]) => key.limits[field] !== undefined && key.limits[field] !== null).map(([field]) => `${usd(key.limits[field])}/${field.replace('Spend', '').replace('daily', 'day').replace('weekly', 'week').replace('monthly', 'month')}`);
  return parts.length ? parts.join(', ') : 'none';
}

function AccountKeyForm(props: {
  session: AccountSession;
  account: AccountView;
  apiKey?: AccountKey;
  onSaved: (created: { value: string; name: string } | null) => void;
  onCancel: () => void;
}) {
  const existing = props.apiKey;
  const [name, setName] = useState(existing?.name ?? '');
  const [group, setGroup] = useState(existing?.group ?? props.account.groups[0]?.name ?? '');
  const [ips, setIps] = useState(existing?.allowedIps?.join(', ') ?? '');
  const [caps, setCaps] = useState<Record<string, string>>(Object.fromEntries(CAPS.map(([field]) => [field, existing?.limits[field] === undefined || existing.limits[field] === null ? '' : String(existing.limits[field])])));
  const submission = useSubmit();

  if (!existing && props.account.groups.length === 0) {
    return (
      <p class="notice">
        There is no group you can make a key for: you need an active subscription (redeem a code) or the operator must offer a default group for accounts.
      </p>
    );
  }

  const submit = async (event: Event) => {
    event.preventDefault();
    const limits: Record<string, number | null> = {};
    for (const [field, label] of CAPS) {
      const value = moneyInput(caps[field] ?? '');
      if (value !== undefined && (!Number.isFinite(value) || value <= 0)) return submission.setError(`${label}: a positive amount, or empty for no cap.`);
      limits[field] = value ?? null;
    }
    const body = { allowedIps: ips.trim() === '' ? null : splitList(ips), limits };
    await submission.run(async () => {
      if (existing) {
        await accountCall(props.session, `/keys/${encodeURIComponent(existing.id)}`, { method: 'PATCH', body });
        props.onSaved(null);
      } else {
        const created = await accountCall<{ key: string; name: string }>(props.session, '/keys', { method: 'POST', body: { name: name.trim(), group, ...body } });
        props.onSaved({ value: created.key, name: created.name });
      }
    });
  };

  return (
    <form class="form" onSubmit={submit}>
      {!existing && (
        <>
          <label>
            Name
            <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required maxLength={100} />
            <span class="hint">For you, e.g. the client or machine it is for.</span>
          </label>
          <label>
            Group
            <select name="group" value={group} onChange={(event) => setGroup(inputValue(event))}>
              {props.account.groups.map((entry) => (
                <option key={entry.name} value={entry.name}>
                  {entry.name} — {entry.via === 'subscription' ? 'your subscription' : 'paid from your wallet'} ({entry.models.length} model{entry.models.length === 1 ? '' : 's'})
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      <label>
        IP fence
        <input name="allowedIps" value={ips} placeholder="203.0.113.0/24, 2001:db8::/32" onInput={(event) => setIps(inputValue(event))} />
        <span class="hint">Only these addresses or ranges may use the key. Empty: any address.</span>
      </label>
      <fieldset>
        <legend>Spend caps for this key (empty: none)</legend>
        <div class="row wrap">
          {CAPS.map(([field, label]) => (
            <label key={field}>
              {label}
              <input name={field} type="number" min="0" step="0.01" value={caps[field]} onInput={(event) => setCaps((current) => ({ ...current, [field]: inputValue(event) }))} />
            </label>
          ))}
        </div>
      </fieldset>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? 'Save limits' : 'Create key'} onCancel={props.onCancel} />
    </form>
  );
}
