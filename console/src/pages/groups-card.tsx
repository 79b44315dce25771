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
import { t } from '../i18n/i18n.ts';

const MODES: Array<[BillingMode, string]> = [
  ['balance', 'groups.modeBalance'],
  ['subscription', 'groups.modeSubscription'],
  ['subscription_then_balance', 'groups.modeBoth'],
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
      done(t('groups.billsBy', { group, mode: t(`groups.short_${billing}`) }));
    } catch (error) {
      failed(t('groups.couldNotChange', { group }), error);
    }
  };
  const remove = async (group: string) => {
    if (!confirm(t('groups.confirmDelete', { group }))) return;
    try {
      await call(`/api/admin/groups/${encodeURIComponent(group)}`, { method: 'DELETE', bearer: props.token });
      done(t('groups.deleted', { group }));
    } catch (error) {
      failed(t('groups.couldNotDelete', { group }), error);
    }
  };
  const setDefault = async (group: string) => {
    try {
      await api.setAccountSettings({ defaultGroup: group === '' ? null : group });
      done(group ? t('groups.defaultSet', { group }) : t('groups.defaultNone'));
    } catch (error) {
      failed(t('groups.couldNotDefault'), error);
    }
  };

  return (
    <div class="card" data-groups>
      <div class="card-head">
        <h2>{t('groups.title')}</h2>
        <button type="button" class="primary" onClick={() => setEditing({ mode: 'create' })}>
          {t('groups.new')}
        </button>
      </div>
      <p class="muted small-text">
        {t('groups.intro')}
      </p>
      {message && (message.error ? <ErrorNotice>{message.text}</ErrorNotice> : <p class="notice success" role="status">{message.text}</p>)}
      {data.error && <ErrorNotice>{t('groups.couldNotLoad', { message: data.error.message })}</ErrorNotice>}
      {data.data && (
        <>
          <div class="table-wrap">
            <table class="stacked">
              <thead>
                <tr>
                  <th scope="col">{t('groups.group')}</th>
                  <th scope="col">{t('groups.billing')}</th>
                  <th scope="col" class="num">{t('groups.price')}</th>
                  <th scope="col">{t('groups.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {data.data.groups.map((group) => (
                  <tr key={group.name} data-group={group.name}>
                    <td data-label={t('groups.group')}>
                      <strong>{group.name}</strong>
                      {group.description && <div class="small-text muted">{group.description}</div>}
                    </td>
                    <td>
                      <label>
                        <span class="visually-hidden">{t('groups.billingOf', { group: group.name })}</span>
                        <BillingModeSelect name={`billing-${group.name}`} value={group.billing} onChange={(mode) => setBilling(group.name, mode)} />
                      </label>
                    </td>
                    <td class="num" data-label={t('groups.price')}>
                      {group.priceMultiplier}
                    </td>
                    <td>
                      <div class="actions">
                        <button type="button" class="small" onClick={() => setEditing({ mode: 'edit', group })} aria-label={t('groups.editLabel', { group: group.name })}>
                          {t('groups.edit')}
                        </button>
                        {group.name !== DEFAULT_GROUP && (
                          <button type="button" class="small danger" onClick={() => remove(group.name)} aria-label={t('groups.deleteLabel', { group: group.name })}>
                            {t('groups.delete')}
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
              {t('groups.defaultGroup')}
              <select name="account-default-group" value={data.data.settings.defaultGroup ?? ''} onChange={(event) => setDefault(inputValue(event))}>
                <option value="">{t('groups.noDefault')}</option>
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
        <Drawer title={editing.mode === 'create' ? t('groups.createTitle') : t('groups.editTitle', { group: editing.group.name })} onClose={() => setEditing(null)}>
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
    if (multiplier.trim() === '' || !Number.isFinite(priceMultiplier) || priceMultiplier < 0) return submission.setError(t('groups.badMultiplier'));
    const body = { name: name.trim(), description: description.trim(), priceMultiplier, billing };
    await submission.run(async () => {
      if (existing) {
        const saved = await call<Group>(`/api/admin/groups/${encodeURIComponent(existing.name)}`, { method: 'PATCH', body, bearer: props.token });
        props.onSaved(saved.name === existing.name ? t('groups.saved', { group: saved.name }) : t('groups.renamed', { from: existing.name, to: saved.name }));
      } else {
        const created = await call<Group>('/api/admin/groups', { method: 'POST', body, bearer: props.token });
        props.onSaved(t('groups.created', { group: created.name }));
      }
    });
  };

  return (
    <form class="form" onSubmit={submit}>
      <label>
        {t('groups.name')}
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required disabled={locked} autoComplete="off" />
        <span class="hint">
          {locked
            ? t('groups.lockedHint')
            : existing
              ? t('groups.renameHint')
              : t('groups.nameHint')}
        </span>
      </label>
      <label>
        {t('groups.description')}
        <input name="description" value={description} onInput={(event) => setDescription(inputValue(event))} />
      </label>
      <label>
        {t('groups.multiplier')}
        <input name="priceMultiplier" type="number" min="0" step="0.01" value={multiplier} onInput={(event) => setMultiplier(inputValue(event))} />
        <span class="hint">{t('groups.multiplierHint')}</span>
      </label>
      <label>
        {t('groups.billing')}
        <BillingModeSelect name="billing" value={billing} onChange={setBilling} />
      </label>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? t('groups.save') : t('groups.create')} onCancel={props.onCancel} />
    </form>
  );
}

function BillingModeSelect(props: { name: string; value: BillingMode; onChange: (mode: BillingMode) => void }) {
  return (
    <select name={props.name} value={props.value} onChange={(event) => props.onChange(inputValue(event) as BillingMode)}>
      {MODES.map(([mode, label]) => (
        <option key={mode} value={mode}>
          {t(label)}
        </option>
      ))}
    </select>
  );
}
