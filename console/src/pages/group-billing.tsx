import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import type { BillingMode } from '../lib/account-types.ts';
import { adminApi } from '../lib/accounts-admin.ts';
import { call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Group, ListAnswer } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';

const MODES: Array<[BillingMode, string]> = [
  ['balance', 'Balance: charged to the wallet or key balance'],
  ['subscription', 'Subscription: needs an active subscription; only its quotas pay'],
  ['subscription_then_balance', 'Subscription, then balance: quotas first, then the wallet'],
];

/** Where groups are shown: each group's billing mode, and which group accounts get by default. */
export function GroupBilling(props: { token: string }) {
  const api = adminApi(props.token);
  const data = useResource(async () => {
    const groups = (await call<ListAnswer<Group & { billing?: BillingMode }>>('/api/admin/groups', { bearer: props.token })).data;
    const settings = await api.accountSettings().catch(() => null);
    return { groups, settings };
  }, [props.token]);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const setBilling = async (group: string, billing: BillingMode) => {
    try {
      await call(`/api/admin/groups/${encodeURIComponent(group)}`, { method: 'PATCH', body: { billing }, bearer: props.token });
      setMessage({ text: `Group ${group} now bills by ${billing.replace(/_/g, ' ')}.`, error: false });
      data.reload();
    } catch (error) {
      setMessage({ text: `Could not change ${group}: ${errorMessage(error)}`, error: true });
    }
  };
  const setDefault = async (group: string) => {
    try {
      await api.setAccountSettings({ defaultGroup: group === '' ? null : group });
      setMessage({ text: group ? `Accounts may create keys in ${group} without a subscription.` : 'Accounts need a subscription to create keys.', error: false });
      data.reload();
    } catch (error) {
      setMessage({ text: `Could not change the default group: ${errorMessage(error)}`, error: true });
    }
  };

  return (
    <div class="card" data-group-billing>
      <h2>Billing per group</h2>
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
                </tr>
              </thead>
              <tbody>
                {data.data.groups.map((group) => (
                  <tr key={group.name}>
                    <td data-label="Group">
                      <strong>{group.name}</strong>
                      {group.description && <div class="small-text muted">{group.description}</div>}
                    </td>
                    <td>
                      <label>
                        <span class="visually-hidden">Billing mode of {group.name}</span>
                        <select name={`billing-${group.name}`} value={group.billing ?? 'balance'} onChange={(event) => setBilling(group.name, inputValue(event) as BillingMode)}>
                          {MODES.map(([mode, label]) => (
                            <option key={mode} value={mode}>
                              {label}
                            </option>
                          ))}
                        </select>
                      </label>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.data.settings && (
            <label class="inline" style={{ marginTop: '0.75rem' }}>
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
    </div>
  );
}
