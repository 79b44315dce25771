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
import { t } from '../i18n/i18n.ts';

type AccountSession = Extract<Session, { role: 'account' }>;
/** Each cap's field, its label's catalogue key, and its per-period key. */
const CAPS = [
  ['dailySpend', 'accountKeys.dailyCap', 'accountKeys.perDay'],
  ['weeklySpend', 'accountKeys.weeklyCap', 'accountKeys.perWeek'],
  ['monthlySpend', 'accountKeys.monthlyCap', 'accountKeys.perMonth'],
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
    if (!confirm(t('accountKeys.confirmRevoke', { name: key.name }))) return;
    try {
      await accountCall(props.session, `/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' });
      setMessage(t('accountKeys.revoked', { name: key.name }));
      data.reload();
    } catch (error) {
      setMessage(t('accountKeys.couldNotRevoke', { name: key.name, message: errorMessage(error) }));
    }
  };

  return (
    <section>
      <PageHead title={t('accountKeys.title')} onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setPanel({ mode: 'create' })}>
          {t('accountKeys.create')}
        </button>
      </PageHead>
      {secret && (
        <div class="notice secret" role="alert" data-secret-panel>
          <p>
            <strong>{t('accountKeys.created', { name: secret.name })}</strong> {t('accountKeys.copyNow')}
          </p>
          <div class="secret-line">
            <code data-secret>{secret.value}</code>
            <CopyButton text={secret.value} label={t('accountKeys.copyKey')} />
          </div>
          <button type="button" class="small" onClick={() => setSecret(null)}>
            {t('accountKeys.hide')}
          </button>
        </div>
      )}
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what={t('accountKeys.what')}>
        {({ account, keys }) => (
          <>
            {keys.length === 0 ? (
              <p class="notice">
                {t('accountKeys.none')}{' '}
                {account.groups.length === 0 ? t('accountKeys.nothingToUse') : t('accountKeys.createOne')}
              </p>
            ) : (
              <div class="table-wrap">
                <table class="stacked">
                  <caption class="visually-hidden">{t('accountKeys.caption')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('accountKeys.key')}</th>
                      <th scope="col">{t('accountKeys.group')}</th>
                      <th scope="col" class="num">{t('accountKeys.spent')}</th>
                      <th scope="col">{t('accountKeys.caps')}</th>
                      <th scope="col">{t('accountKeys.fence')}</th>
                      <th scope="col">{t('accountKeys.actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {keys.map((key) => (
                      <tr key={key.id} data-key={key.name}>
                        <td data-label={t('accountKeys.key')}>
                          <strong>{key.name}</strong>
                          <div class="small-text muted">
                            <code>{key.keyHint}</code> · {t('accountKeys.createdAt', { time: dateTime(key.createdAt) })}
                          </div>
                        </td>
                        <td data-label={t('accountKeys.group')}>{key.group}</td>
                        <td class="num" data-label={t('accountKeys.spent')}>
                          {usd(key.spent)}
                        </td>
                        <td class="small-text" data-label={t('accountKeys.caps')}>
                          {capsText(key)}
                        </td>
                        <td class="small-text" data-label={t('accountKeys.fence')}>
                          {list(key.allowedIps, t('accountKeys.anyAddress'))}
                        </td>
                        <td>
                          <div class="actions">
                            <button type="button" class="small" onClick={() => setPanel({ mode: 'edit', key })}>
                              {t('accountKeys.limitsOf', { name: key.name })}
                            </button>
                            <button type="button" class="small danger" onClick={() => revoke(key)}>
                              {t('accountKeys.revoke')}
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
              <Drawer title={panel.mode === 'create' ? t('accountKeys.createTitle') : t('accountKeys.limitsOfKey', { name: panel.key.name })} onClose={() => setPanel(null)}>
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
                    } else setMessage(t('accountKeys.limitsSaved'));
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
  const parts = CAPS.filter(([field]) => key.limits[field] !== undefined && key.limits[field] !== null).map(([field, , per]) => t(per, { amount: usd(key.limits[field]) }));
  return parts.length ? parts.join(t('common.listSeparator')) : t('accountKeys.noCaps');
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
        {t('accountKeys.noGroup')}
      </p>
    );
  }

  const submit = async (event: Event) => {
    event.preventDefault();
    const limits: Record<string, number | null> = {};
    for (const [field, label] of CAPS) {
      const value = moneyInput(caps[field] ?? '');
      if (value !== undefined && (!Number.isFinite(value) || value <= 0)) return submission.setError(t('accountKeys.capInvalid', { label: t(label) }));
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
            {t('accountKeys.name')}
            <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required maxLength={100} />
            <span class="hint">{t('accountKeys.nameHint')}</span>
          </label>
          <label>
            {t('accountKeys.group')}
            <select name="group" value={group} onChange={(event) => setGroup(inputValue(event))}>
              {props.account.groups.map((entry) => (
                <option key={entry.name} value={entry.name}>
                  {entry.name} — {entry.via === 'subscription' ? t('accountKeys.viaSubscription') : t('accountKeys.viaWallet')} ({t('accountKeys.models', { count: entry.models.length })})
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      <label>
        {t('accountKeys.fence')}
        <input name="allowedIps" value={ips} placeholder="203.0.113.0/24, 2001:db8::/32" onInput={(event) => setIps(inputValue(event))} />
        <span class="hint">{t('accountKeys.fenceHint')}</span>
      </label>
      <fieldset>
        <legend>{t('accountKeys.capsLegend')}</legend>
        <div class="row wrap">
          {CAPS.map(([field, label]) => (
            <label key={field}>
              {t(label)}
              <input name={field} type="number" min="0" step="0.01" value={caps[field]} onInput={(event) => setCaps((current) => ({ ...current, [field]: inputValue(event) }))} />
            </label>
          ))}
        </div>
      </fieldset>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? t('accountKeys.saveLimits') : t('accountKeys.create')} onCancel={props.onCancel} />
    </form>
  );
}
