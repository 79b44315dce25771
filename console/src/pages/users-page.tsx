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
import { statusName } from '../i18n/status-name.ts';
import { t } from '../i18n/i18n.ts';

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
      setMessage(t(user.enabled ? 'users.disabled' : 'users.enabled', { name: user.name }));
      data.reload();
    } catch (error) {
      setMessage(t('users.couldNotChange', { name: user.name, message: errorMessage(error) }));
    }
  };

  return (
    <section>
      <PageHead title={t('users.title')} onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setPanel({ mode: 'create' })}>
          {t('users.create')}
        </button>
      </PageHead>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what={t('users.what')}>
        {(loaded) => {
          const needle = search.trim().toLowerCase();
          const shown = loaded.users.filter((user) => !needle || user.name.toLowerCase().includes(needle) || (user.email ?? '').toLowerCase().includes(needle) || user.id === needle);
          const plans = indexById(loaded.plans);
          const detail = panel?.mode === 'detail' ? loaded.users.find((user) => user.id === panel.userId) : undefined;
          return (
            <>
              <label class="search">
                {t('users.search')}
                <input type="search" name="search" value={search} onInput={(event) => setSearch(inputValue(event))} />
              </label>
              {loaded.users.length === 0 ? (
                <p class="notice">{t('users.none')}</p>
              ) : shown.length === 0 ? (
                <p class="notice">{t('users.noMatch', { search })}</p>
              ) : (
                <div class="table-wrap">
                  <table class="stacked">
                    <caption class="visually-hidden">{t('users.caption')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('users.user')}</th>
                        <th scope="col" class="num">{t('users.wallet')}</th>
                        <th scope="col">{t('users.keys')}</th>
                        <th scope="col">{t('users.subscriptions')}</th>
                        <th scope="col">{t('users.state')}</th>
                        <th scope="col">{t('users.actions')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((user) => {
                        const keys = loaded.keys.filter((key) => ownedBy(key.user, user));
                        const subscriptions = loaded.subscriptions.filter((subscription) => ownedBy(subscription.user, user));
                        return (
                          <tr key={user.id} data-user={user.name}>
                            <td data-label={t('users.user')}>
                              <strong>{user.name}</strong>
                              <div class="small-text muted">{user.email ?? t('users.noEmail')}</div>
                            </td>
                            <td class="num" data-label={t('users.wallet')} data-wallet>
                              {usd(user.balance)}
                            </td>
                            <td data-label={t('users.keys')} class="small-text">
                              {keys.length === 0 ? t('users.noneShort') : keys.map((key) => key.name).join(', ')}
                            </td>
                            <td data-label={t('users.subscriptions')} class="small-text">
                              {subscriptions.length === 0
                                ? t('users.noneShort')
                                : subscriptions.map((subscription) => `${refName(subscription.plan, plans)} (${statusName(subscription.status)})`).join(', ')}
                            </td>
                            <td data-label={t('users.state')}>
                              <span class={`badge ${user.enabled ? 'ok' : 'down'}`}>{user.enabled ? t('status.enabled') : t('status.disabled')}</span>
                            </td>
                            <td>
                              <div class="actions">
                                <button type="button" class="small" onClick={() => setPanel({ mode: 'detail', userId: user.id })}>
                                  {t('users.open', { name: user.name })}
                                </button>
                                <button type="button" class="small" onClick={() => toggle(user)}>
                                  {user.enabled ? t('users.disable') : t('users.enable')}
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
                <Drawer title={t('users.createTitle')} onClose={() => setPanel(null)}>
                  <UserForm
                    api={api}
                    onCancel={() => setPanel(null)}
                    onCreated={(user) => {
                      setMessage(t('users.created', { name: user.name }));
                      setPanel(null);
                      data.reload();
                    }}
                  />
                </Drawer>
              )}
              {detail && (
                <Drawer title={t('users.userTitle', { name: detail.name })} onClose={() => setPanel(null)}>
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
