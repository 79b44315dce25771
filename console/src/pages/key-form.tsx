import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { call } from '../lib/api.ts';
import { splitList } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { ApiKeyRecord, Group, KeyLimits } from '../lib/types.ts';
import { useSubmit } from '../lib/use-submit.ts';

const LIMIT_FIELDS: Array<[keyof KeyLimits, string, string]> = [
  ['requestsPerMinute', 'Requests per minute', '1'],
  ['tokensPerMinute', 'Tokens per minute', '1'],
  ['concurrentRequests', 'Concurrent requests', '1'],
  ['dailySpend', 'Daily spend cap (USD)', '0.01'],
  ['weeklySpend', 'Weekly spend cap (USD)', '0.01'],
  ['monthlySpend', 'Monthly spend cap (USD)', '0.01'],
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
        Name
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required />
      </label>
      <label>
        Group
        <select name="group" value={group} onChange={(event) => setGroup(inputValue(event))}>
          {props.groups.map((entry) => (
            <option value={entry.name} key={entry.name}>
              {entry.name}
              {entry.priceMultiplier !== 1 ? ` (price ×${entry.priceMultiplier})` : ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        Expires
        <input name="expiresAt" type="datetime-local" value={expiresAt} onInput={(event) => setExpiresAt(inputValue(event))} />
        <span class="hint">Empty: never expires.</span>
      </label>
      <label>
        Balance (USD)
        <input name="balance" type="number" min="0" step="0.01" value={balance} onInput={(event) => setBalance(inputValue(event))} />
        <span class="hint">Empty: unlimited.</span>
      </label>
      <label>
        Allowed models
        <input name="allowedModels" value={allowedModels} onInput={(event) => setAllowedModels(inputValue(event))} />
        <span class="hint">Empty: every model of the group. Comma-separated.</span>
      </label>
      <label>
        Allowed IPs
        <input name="allowedIps" value={allowedIps} placeholder="203.0.113.0/24, 2001:db8::/32" onInput={(event) => setAllowedIps(inputValue(event))} />
        <span class="hint">Empty: any address.</span>
      </label>
      <fieldset>
        <legend>Rate limits and spend caps (empty: none)</legend>
        <div class="row wrap">
          {LIMIT_FIELDS.map(([field, label, step]) => (
            <label key={field}>
              {label}
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
      <FormActions busy={submission.busy} submitLabel={existing ? 'Save key' : 'Create key'} onCancel={props.onCancel} />
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
