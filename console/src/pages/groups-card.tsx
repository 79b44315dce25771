import { useState } from 'preact/hooks';
import { Drawer } from '../components/drawer.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { type BillingMode } from '../../../src/domain/billing-mode.ts';
import { adminApi } from '../lib/accounts-admin.ts';
import { call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Group, ListAnswer } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';

const MODES: Array<[BillingMode, string]> = [
  ['balance', 'Balance: charged to the wallet or key balance'],
  ['subscription', 'Subscription: needs an active subscription; only its quotas pay'],
  ['subscription_then_balance', 'Subscription, then balance: quotas first, then the wallet'],
];

/** Routing and new keys fall back to it, so the gateway refuses to rename or delete it. */
const DEFAULT_GROUP = 'default';

type Editing = { mode: 'create' } | { mode: 'edit'; group: Group } | null;

/**
 * Where groups are managed: create one (with its billing mode), rename, describe or delete it,
 * change its billing mode, and choose which group accounts get by default. `onChanged` lets the
 * page redraw what depends on the groups (the matrix's columns).
 */
export function GroupsCard(props: { token: string; onChanged: () => void }) {
  const api = adminApi(props.token);
  const data = useResource(async () => {
    const groups = (await call<ListAnswer<Group>>('/api/admin/groups', { bearer: props.token })).data;
    const settings = await api.accountSettings().catch(() => null);
    return { groups, settings };
  }, [props.token]);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [editing, setEditing] = useState<Editing>(null);

  const done = (text: string) => {
    setMessage({ text, error: false });
    data.reload();
    props.onChanged();
  };
  const failed = (text: string, error: unknown) => setMessage({ text: `${text}: ${errorMessage(error)}`, error: true });

  const setBilling = async (group: string, billing: BillingMode) => {
    try {
      await call(`/api/admin/groups/${encodeURIComponent(group)}`, { method: 'PATCH', body: { billing }, bearer: props.token });
      done(`Group ${group} now bills by ${billing.replace(/_/g, ' ')}.`);
    } catch (error) {
      failed(`Could not change ${group}`, error);
    }
  };
  const remove = async (group: string) => {
    if (!confirm(`Delete group "${group}"? Channels stop serving it; a group that keys or plans still use cannot be deleted.`)) return;
    try {
      await call(`/api/admin/groups/${encodeURIComponent(group)}`, { method: 'DELETE', bearer: props.token });
      done(`Group ${group} deleted.`);
    } catch (error) {
      failed(`Could not delete ${group}`, error);
    }
  };
  const setDefault = async (group: string) => {
    try {
      await api.setAccountSettings({ defaultGroup: group === '' ? null : group });
      done(group ? `Accounts may create keys in ${group} without a subscription.` : 'Accounts need a subscription to create keys.');
    } catch (error) {
      failed('Could not change the default group', error);
    }
  };

  return (
    <div class="card" data-groups>
      <div class="card-head">
        <h2>Groups</h2>
        <button type="button" class="primary" onClick={() => setEditing({ mode: 'create' })}>
          New group
        </button>
      </div>
      <p class="muted small-text">
        A key belongs to one group; the group decides which models it may use (the channels serving it), its price multiplier
        and how its requests are paid.
      </p>
      {message && (message.error ? <ErrorNotice>{message.text}</ErrorNotice> : <p class="notice success" role="status">{message.text}</p>)}
      {data.error && <ErrorNotice>Could not load the groups: {data.error.message}</ErrorNotice>}
      {data.data && (
        <>
          <div class="table-wrap">
            <table class="stacked">
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Billing mode</th>
                  <th scope="col" class="num">Price ×</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.data.groups.map((group) => (
                  <tr key={group.name} data-group={group.name}>
                    <td data-label="Group">
                      <strong>{group.name}</strong>
                      {group.description && <div class="small-text muted">{group.description}</div>}
                    </td>
                    <td>
                      <label>
                        <span class="visually-hidden">Billing mode of {group.name}</span>
                        <BillingModeSelect name={`billing-${group.name}`} value={group.billing} onChange={(mode) => setBilling(group.name, mode)} />
                      </label>
                    </td>
                    <td class="num" data-label="Price ×">
                      {group.priceMultiplier}
                    </td>
                    <td>
                      <div class="actions">
                        <button type="button" class="small" onClick={() => setEditing({ mode: 'edit', group })} aria-label={`Edit or rename ${group.name}`}>
                          Edit
                        </button>
                        {group.name !== DEFAULT_GROUP && (
                          <button type="button" class="small danger" onClick={() => remove(group.name)} aria-label={`Delete ${group.name}`}>
                            Delete
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.data.settings && (
            <label class="inline wrap" style={{ marginTop: '0.75rem' }}>
              Default group for accounts (keys without a subscription):
              <select name="account-default-group" value={data.data.settings.defaultGroup ?? ''} onChange={(event) => setDefault(inputValue(event))}>
                <option value="">None: a subscription is needed</option>
                {data.data.groups.map((group) => (
                  <option key={group.name} value={group.name}>
                    {group.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </>
      )}
      {editing && (
        <Drawer title={editing.mode === 'create' ? 'Create a group' : `Edit group ${editing.group.name}`} onClose={() => setEditing(null)}>
          <GroupForm
            token={props.token}
            {...(editing.mode === 'edit' ? { group: editing.group } : {})}
            onCancel={() => setEditing(null)}
            onSaved={(text) => {
              setEditing(null);
              done(text);
            }}
          />
        </Drawer>
      )}
    </div>
  );
}

/** Create a group (name, description, multiplier, billing mode) or edit one; a new name renames it. */
function GroupForm(props: { token: string; group?: Group; onSaved: (message: string) => void; onCancel: () => void }) {
  const existing = props.group;
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [multiplier, setMultiplier] = useState(String(existing?.priceMultiplier ?? 1));
  const [billing, setBilling] = useState<BillingMode>(existing?.billing ?? 'balance');
  const submission = useSubmit();
  const locked = existing?.name === DEFAULT_GROUP;

  const submit = async (event: Event) => {
    event.preventDefault();
    const priceMultiplier = Number(multiplier);
    if (multiplier.trim() === '' || !Number.isFinite(priceMultiplier) || priceMultiplier < 0) return submission.setError('The price multiplier must be a number, 0 or more (1 = list price).');
    const body = { name: name.trim(), description: description.trim(), priceMultiplier, billing };
    await submission.run(async () => {
      if (existing) {
        const saved = await call<Group>(`/api/admin/groups/${encodeURIComponent(existing.name)}`, { method: 'PATCH', body, bearer: props.token });
        props.onSaved(saved.name === existing.name ? `Group ${saved.name} saved.` : `Group ${existing.name} renamed to ${saved.name}; its keys, channels and plans follow.`);
      } else {
        const created = await call<Group>('/api/admin/groups', { method: 'POST', body, bearer: props.token });
        props.onSaved(`Group ${created.name} created.`);
      }
    });
  };

  return (
    <form class="form" onSubmit={submit}>
      <label>
        Name
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required disabled={locked} autoComplete="off" />
        <span class="hint">
          {locked
            ? 'The default group keeps its name: routing and new keys fall back to it.'
            : existing
              ? 'A new name renames the group; its keys, channels and plans follow. Past usage keeps the old name.'
              : 'Letters, digits, dots, dashes and underscores.'}
        </span>
      </label>
      <label>
        Description (optional)
        <input name="description" value={description} onInput={(event) => setDescription(inputValue(event))} />
      </label>
      <label>
        Price multiplier
        <input name="priceMultiplier" type="number" min="0" step="0.01" value={multiplier} onInput={(event) => setMultiplier(inputValue(event))} />
        <span class="hint">1 = list price; 0.8 = 20 % off.</span>
      </label>
      <label>
        Billing mode
        <BillingModeSelect name="billing" value={billing} onChange={setBilling} />
      </label>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? 'Save group' : 'Create group'} onCancel={props.onCancel} />
    </form>
  );
}

function BillingModeSelect(props: { name: string; value: BillingMode; onChange: (mode: BillingMode) => void }) {
  return (
    <select name={props.name} value={props.value} onChange={(event) => props.onChange(inputValue(event) as BillingMode)}>
      {MODES.map(([mode, label]) => (
        <option key={mode} value={mode}>
          {label}
        </option>
      ))}
    </select>
  );
}
