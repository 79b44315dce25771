import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { call } from '../lib/api.ts';
import { splitList } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { ApiKeyRecord, Group, KeyLimits } from '../lib/types.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

/** Each limit's field, its label's catalogue key, and its input step. */
const LIMIT_FIELDS: Array<[keyof KeyLimits, string, string]> = [
  ['requestsPerMinute', 'keyForm.rpm', '1'],
  ['tokensPerMinute', 'keyForm.tpm', '1'],
  ['concurrentRequests', 'keyForm.concurrent', '1'],
  ['dailySpend', 'keyForm.daily', '0.01'],
  ['weeklySpend', 'keyForm.weekly', '0.01'],
  ['monthlySpend', 'keyForm.monthly', '0.01'],
];

/** Create or edit a key. On create the answer carries the secret, handed to `onCreated` once. */
export function KeyForm(props: {
  token: string;
  groups: Group[];
  apiKey?: ApiKeyRecord;
  onSaved: () => void;
  onCreated: (secret: string, name: string) => void;
  onCancel: () => void;
}) {
  const existing = props.apiKey;
  const [name, setName] = useState(existing?.name ?? '');
  // A new key goes where the API and the CLI put one without a group: `default` (when it exists).
  const [group, setGroup] = useState(existing?.group ?? defaultGroup(props.groups));
  const [expiresAt, setExpiresAt] = useState(existing?.expiresAt ? toLocalInput(existing.expiresAt) : '');
  const [balance, setBalance] = useState(existing?.balance === null || existing?.balance === undefined ? '' : String(existing.balance));
  const [allowedModels, setAllowedModels] = useState(existing?.allowedModels?.join(', ') ?? '');
  const [allowedIps, setAllowedIps] = useState(existing?.allowedIps?.join(', ') ?? '');
  const [limits, setLimits] = useState<Record<string, string>>(
    Object.fromEntries(LIMIT_FIELDS.map(([field]) => [field, existing?.limits[field] === undefined ? '' : String(existing.limits[field])])),
  );
  const submission = useSubmit();

  const submit = async (event: Event) => {
    event.preventDefault();
    const limitBody: Record<string, number> = {};
    for (const [field] of LIMIT_FIELDS) if (limits[field]?.trim()) limitBody[field] = Number(limits[field]);
    const body: Record<string, unknown> = {
      name: name.trim(),
      group,
      expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
      balance: balance.trim() === '' ? null : Number(balance),
      allowedModels: allowedModels.trim() === '' ? null : splitList(allowedModels),
      allowedIps: allowedIps.trim() === '' ? null : splitList(allowedIps),
      limits: limitBody,
    };
    await submission.run(async () => {
      if (existing) {
        await call(`/api/admin/keys/${encodeURIComponent(existing.id)}`, { method: 'PATCH', body, bearer: props.token });
        props.onSaved();
      } else {
        const created = await call<{ key: string; name: string }>('/api/admin/keys', { method: 'POST', body, bearer: props.token });
        props.onCreated(created.key, created.name);
      }
    });
  };

  return (
    <form onSubmit={submit} class="form">
      <label>
        {t('keyForm.name')}
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required />
      </label>
      <label>
        {t('keyForm.group')}
        <select name="group" value={group} onChange={(event) => setGroup(inputValue(event))}>
          {props.groups.map((entry) => (
            <option value={entry.name} key={entry.name}>
              {entry.name}
              {entry.priceMultiplier !== 1 ? t('keyForm.priceTimes', { multiplier: entry.priceMultiplier }) : ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('keyForm.expires')}
        <input name="expiresAt" type="datetime-local" value={expiresAt} onInput={(event) => setExpiresAt(inputValue(event))} />
        <span class="hint">{t('keyForm.neverHint')}</span>
      </label>
      <label>
        {t('keyForm.balance')}
        <input name="balance" type="number" min="0" step="0.01" value={balance} onInput={(event) => setBalance(inputValue(event))} />
        <span class="hint">{t('keyForm.unlimitedHint')}</span>
      </label>
      <label>
        {t('keyForm.models')}
        <input name="allowedModels" value={allowedModels} onInput={(event) => setAllowedModels(inputValue(event))} />
        <span class="hint">{t('keyForm.modelsHint')}</span>
      </label>
      <label>
        {t('keyForm.ips')}
        <input name="allowedIps" value={allowedIps} placeholder="203.0.113.0/24, 2001:db8::/32" onInput={(event) => setAllowedIps(inputValue(event))} />
        <span class="hint">{t('keyForm.ipsHint')}</span>
      </label>
      <fieldset>
        <legend>{t('keyForm.limits')}</legend>
        <div class="row wrap">
          {LIMIT_FIELDS.map(([field, label, step]) => (
            <label key={field}>
              {t(label)}
              <input
                name={field}
                type="number"
                min="0"
                step={step}
                value={limits[field]}
                onInput={(event) => setLimits((current) => ({ ...current, [field]: inputValue(event) }))}
              />
            </label>
          ))}
        </div>
      </fieldset>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? t('keyForm.save') : t('keyForm.create')} onCancel={props.onCancel} />
    </form>
  );
}

function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function defaultGroup(groups: Group[]): string {
  return groups.some((entry) => entry.name === 'default') ? 'default' : (groups[0]?.name ?? 'default');
}
