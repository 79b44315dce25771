import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { Drawer } from '../components/drawer.tsx';
import { PageHead } from '../components/page-head.tsx';
import { refId, refName, indexById } from '../lib/account-format.ts';
import { type AdminPlanView as Plan, type AdminSubscriptionView as Subscription, type AdminUserView as User } from '../../../src/domain/account-admin-api.ts';
import { type Ref } from '../lib/account-format.ts';
import { adminApi } from '../lib/accounts-admin.ts';
import { call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { ApiKeyRecord, ListAnswer } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { UserDetail } from './user-detail.tsx';
import { UserForm } from './user-form.tsx';

export interface UsersData {
  users: User[];
  keys: Array<ApiKeyRecord & { user?: Ref }>;
  subscriptions: Subscription[];
  plans: Plan[];
}

/** The operator's accounts: search, wallets, keys and subscriptions; create, disable, top up. */
export function UsersPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const api = adminApi(token);
  const data = useResource<UsersData>(async () => {
    const [users, keys, subscriptions, plans] = await Promise.all([
      api.users(),
      call<ListAnswer<ApiKeyRecord & { user?: Ref }>>('/api/admin/keys', { bearer: token }).then((answer) => answer.data),
      api.subscriptions(),
      api.plans(),
    ]);
    return { users, keys, subscriptions, plans };
  }, [token]);
  const [search, setSearch] = useState('');
  const [panel, setPanel] = useState<{ mode: 'create' } | { mode: 'detail'; userId: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const toggle = async (user: User) => {
    try {
      await api.updateUser(user.id, { enabled: !user.enabled });
      setMessage(`User ${user.name} ${user.enabled ? 'disabled: their keys are refused' : 'enabled'}.`);
      data.reload();
    } catch (error) {
      setMessage(`Could not change ${user.name}: ${errorMessage(error)}`);
    }
  };

  return (
    <section>
      <PageHead title="Users" onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setPanel({ mode: 'create' })}>
          Create user
        </button>
      </PageHead>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what="users">
        {(loaded) => {
          const needle = search.trim().toLowerCase();
          const shown = loaded.users.filter((user) => !needle || user.name.toLowerCase().includes(needle) || (user.email ?? '').toLowerCase().includes(needle) || user.id === needle);
          const plans = indexById(loaded.plans);
          const detail = panel?.mode === 'detail' ? loaded.users.find((user) => user.id === panel.userId) : undefined;
          return (
            <>
              <label class="search">
                Search by name or email
                <input type="search" name="search" value={search} onInput={(event) => setSearch(inputValue(event))} />
              </label>
              {loaded.users.length === 0 ? (
                <p class="notice">No users yet. Create one, then grant a subscription or hand them a redemption code.</p>
              ) : shown.length === 0 ? (
                <p class="notice">No user matches “{search}”.</p>
              ) : (
                <div class="table-wrap">
                  <table class="stacked">
                    <caption class="visually-hidden">Users</caption>
                    <thead>
                      <tr>
                        <th scope="col">User</th>
                        <th scope="col" class="num">Wallet</th>
                        <th scope="col">Keys</th>
                        <th scope="col">Subscriptions</th>
                        <th scope="col">State</th>
                        <th scope="col">Actions</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((user) => {
                        const keys = loaded.keys.filter((key) => ownedBy(key.user, user));
                        const subscriptions = loaded.subscriptions.filter((subscription) => ownedBy(subscription.user, user));
                        return (
                          <tr key={user.id} data-user={user.name}>
                            <td data-label="User">
                              <strong>{user.name}</strong>
                              <div class="small-text muted">{user.email ?? 'no email'}</div>
                            </td>
                            <td class="num" data-label="Wallet" data-wallet>
                              {usd(user.balance)}
                            </td>
                            <td data-label="Keys" class="small-text">
                              {keys.length === 0 ? 'none' : keys.map((key) => key.name).join(', ')}
                            </td>
                            <td data-label="Subscriptions" class="small-text">
                              {subscriptions.length === 0
                                ? 'none'
                                : subscriptions.map((subscription) => `${refName(subscription.plan, plans)} (${subscription.status})`).join(', ')}
                            </td>
                            <td data-label="State">
                              <span class={`badge ${user.enabled ? 'ok' : 'down'}`}>{user.enabled ? 'enabled' : 'disabled'}</span>
                            </td>
                            <td>
                              <div class="actions">
                                <button type="button" class="small" onClick={() => setPanel({ mode: 'detail', userId: user.id })}>
                                  Open {user.name}
                                </button>
                                <button type="button" class="small" onClick={() => toggle(user)}>
                                  {user.enabled ? 'Disable' : 'Enable'}
                                </button>
                              </div>
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              )}
              {panel?.mode === 'create' && (
                <Drawer title="Create a user" onClose={() => setPanel(null)}>
                  <UserForm
                    api={api}
                    onCancel={() => setPanel(null)}
                    onCreated={(user) => {
                      setMessage(`User ${user.name} created.`);
                      setPanel(null);
                      data.reload();
                    }}
                  />
                </Drawer>
              )}
              {detail && (
                <Drawer title={`User ${detail.name}`} onClose={() => setPanel(null)}>
                  <UserDetail api={api} user={detail} data={loaded} onChanged={data.reload} />
                </Drawer>
              )}
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

/** A key's or subscription's owner may be given as id, name or record. */
export function ownedBy(ref: Ref, user: User): boolean {
  if (ref === null || ref === undefined) return false;
  const id = refId(ref);
  return id === user.id || id === user.name || (typeof ref === 'object' && ref.name === user.name);
}
