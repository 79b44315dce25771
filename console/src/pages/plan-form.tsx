import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { moneyInput, refName } from '../lib/account-format.ts';
import { QUOTA_WINDOWS, type QuotaWindow } from '../../../src/domain/plan.ts';
import { type AdminPlanView as Plan } from '../../../src/domain/account-admin-api.ts';
import type { AdminApi } from '../lib/accounts-admin.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Group } from '../lib/types.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

/** Catalogue keys of each quota field's label. */
const QUOTA_LABEL: Record<QuotaWindow, string> = {
  daily: 'planForm.daily',
  weekly: 'planForm.weekly',
  monthly: 'planForm.monthly',
  total: 'planForm.total',
};

/** Create or edit a plan. Empty quota fields mean no limit for that window. */
export function PlanForm(props: { api: AdminApi; groups: Group[]; plan?: Plan; onSaved: (plan: Plan, created: boolean) => void; onCancel: () => void }) {
  const existing = props.plan;
  const [name, setName] = useState(existing?.name ?? '');
  const [group, setGroup] = useState(existing ? refName(existing.group) : (props.groups[0]?.name ?? 'default'));
  const [days, setDays] = useState(String(existing?.durationDays ?? 30));
  const [price, setPrice] = useState(existing?.price === null || existing?.price === undefined ? '' : String(existing.price));
  const [description, setDescription] = useState(existing?.description ?? '');
  const [quota, setQuota] = useState<Record<QuotaWindow, string>>(
    Object.fromEntries(QUOTA_WINDOWS.map((window) => [window, existing?.quota?.[window] === undefined || existing?.quota?.[window] === null ? '' : String(existing.quota[window])])) as Record<QuotaWindow, string>,
  );
  const submission = useSubmit();

  const submit = async (event: Event) => {
    event.preventDefault();
    const duration = Number(days);
    if (!Number.isInteger(duration) || duration < 1) return submission.setError(t('planForm.badTerm'));
    const quotaBody: Record<string, number | null> = {};
    for (const window of QUOTA_WINDOWS) {
      const value = moneyInput(quota[window]);
      if (value !== undefined && (!Number.isFinite(value) || value <= 0)) return submission.setError(t('planForm.badQuota', { label: t(QUOTA_LABEL[window]) }));
      if (value !== undefined) quotaBody[window] = value;
      else if (existing) quotaBody[window] = null;
    }
    const listPrice = moneyInput(price);
    if (listPrice !== undefined && (!Number.isFinite(listPrice) || listPrice < 0)) return submission.setError(t('planForm.badPrice'));
    const body: Record<string, unknown> = {
      name: name.trim(),
      group,
      durationDays: duration,
      quota: existing ? quotaBody : Object.fromEntries(Object.entries(quotaBody).filter(([, value]) => value !== null)),
      description: description.trim(),
      ...(listPrice !== undefined ? { price: listPrice } : existing ? { price: null } : {}),
    };
    await submission.run(async () => {
      const saved = existing ? await props.api.updatePlan(existing.id, body) : await props.api.createPlan(body);
      props.onSaved(saved, !existing);
    });
  };

  return (
    <form class="form" onSubmit={submit}>
      <label>
        {t('planForm.name')}
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required />
      </label>
      <label>
        {t('planForm.group')}
        <select name="group" value={group} onChange={(event) => setGroup(inputValue(event))}>
          {props.groups.map((entry) => (
            <option key={entry.name} value={entry.name}>
              {entry.name}
            </option>
          ))}
        </select>
        <span class="hint">{t('planForm.groupHint')}</span>
      </label>
      <label>
        {t('planForm.term')}
        <input name="durationDays" type="number" min="1" step="1" value={days} onInput={(event) => setDays(inputValue(event))} required />
      </label>
      <fieldset>
        <legend>{t('planForm.quotas')}</legend>
        <div class="row wrap">
          {QUOTA_WINDOWS.map((window) => (
            <label key={window}>
              {t(QUOTA_LABEL[window])}
              <input
                name={`quota-${window}`}
                type="number"
                min="0"
                step="0.01"
                value={quota[window]}
                onInput={(event) => setQuota((current) => ({ ...current, [window]: inputValue(event) }))}
              />
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        {t('planForm.price')}
        <input name="price" type="number" min="0" step="0.01" value={price} onInput={(event) => setPrice(inputValue(event))} />
        <span class="hint">{t('planForm.priceHint')}</span>
      </label>
      <label>
        {t('planForm.description')}
        <textarea name="description" rows={2} value={description} onInput={(event) => setDescription(inputValue(event))} />
      </label>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? t('planForm.save') : t('planForm.create')} onCancel={props.onCancel} />
    </form>
  );
}
