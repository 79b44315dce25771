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

const QUOTA_LABEL: Record<QuotaWindow, string> = {
  daily: 'Daily quota (USD, UTC day)',
  weekly: 'Weekly quota (USD, ISO week)',
  monthly: 'Monthly quota (USD, calendar month)',
  total: 'Quota for the whole term (USD)',
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
    if (!Number.isInteger(duration) || duration < 1) return submission.setError('The term is a whole number of days, 1 or more.');
    const quotaBody: Record<string, number | null> = {};
    for (const window of QUOTA_WINDOWS) {
      const value = moneyInput(quota[window]);
      if (value !== undefined && (!Number.isFinite(value) || value <= 0)) return submission.setError(`${QUOTA_LABEL[window]}: a positive number of USD, or empty for no limit.`);
      if (value !== undefined) quotaBody[window] = value;
      else if (existing) quotaBody[window] = null;
    }
    const listPrice = moneyInput(price);
    if (listPrice !== undefined && (!Number.isFinite(listPrice) || listPrice < 0)) return submission.setError('The price is a number of USD, 0 or more, or empty.');
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
        Name
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required />
      </label>
      <label>
        Group
        <select name="group" value={group} onChange={(event) => setGroup(inputValue(event))}>
          {props.groups.map((entry) => (
            <option key={entry.name} value={entry.name}>
              {entry.name}
            </option>
          ))}
        </select>
        <span class="hint">Subscribers may create keys in this group while the subscription is active.</span>
      </label>
      <label>
        Term (days)
        <input name="durationDays" type="number" min="1" step="1" value={days} onInput={(event) => setDays(inputValue(event))} required />
      </label>
      <fieldset>
        <legend>Quotas (empty: no limit for that window)</legend>
        <div class="row wrap">
          {QUOTA_WINDOWS.map((window) => (
            <label key={window}>
              {QUOTA_LABEL[window]}
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
        List price (USD, optional)
        <input name="price" type="number" min="0" step="0.01" value={price} onInput={(event) => setPrice(inputValue(event))} />
        <span class="hint">Shown to you and in codes; Switchyard takes no payments.</span>
      </label>
      <label>
        Description
        <textarea name="description" rows={2} value={description} onInput={(event) => setDescription(inputValue(event))} />
      </label>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? 'Save plan' : 'Create plan'} onCancel={props.onCancel} />
    </form>
  );
}
