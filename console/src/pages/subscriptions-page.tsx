import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { Drawer } from '../components/drawer.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { PageHead } from '../components/page-head.tsx';
import { QuotaBar } from '../components/quota-bar.tsx';
import { highestUse, indexById, quotaOf, refId, refName, WINDOW_LABEL } from '../lib/account-format.ts';
import { QUOTA_WINDOWS } from '../../../src/domain/plan.ts';
import { type AdminPlanView as Plan, type AdminSubscriptionView as Subscription, type AdminUserView as User } from '../../../src/domain/account-admin-api.ts';
import { adminApi, type AdminApi } from '../lib/accounts-admin.ts';
import { errorMessage } from '../lib/error-message.ts';
import { dateTime } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { statusName } from '../i18n/status-name.ts';
import { t } from '../i18n/i18n.ts';

const NEAR = 0.8;

/** Every subscription: grant, extend, suspend, resume; and who is near or over a quota. */
export function SubscriptionsPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const api = adminApi(token);
  const data = useResource(async () => {
    const [subscriptions, users, plans] = await Promise.all([api.subscriptions(), api.users(), api.plans()]);
    return { subscriptions, users, plans };
  }, [token]);
  const [status, setStatus] = useState('');
  const [nearOnly, setNearOnly] = useState(false);
  const [granting, setGranting] = useState(false);
  const [extending, setExtending] = useState<Subscription | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const setState = async (subscription: Subscription, next: 'active' | 'suspended', name: string) => {
    try {
      await api.updateSubscription(subscription.id, { status: next });
      setMessage(t(next === 'suspended' ? 'subscriptions.suspended' : 'subscriptions.resumed', { name }));
      data.reload();
    } catch (error) {
      setMessage(t('subscriptions.couldNotChange', { message: errorMessage(error) }));
    }
  };

  return (
    <section>
      <PageHead title={t('subscriptions.title')} onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setGranting(true)}>
          {t('subscriptions.grant')}
        </button>
      </PageHead>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what={t('subscriptions.what')}>
        {(loaded) => {
          const plans = indexById(loaded.plans);
          const users = indexById(loaded.users);
          const planOf = (subscription: Subscription) => plans.get(refId(subscription.plan)) ?? loaded.plans.find((plan) => plan.name === refName(subscription.plan));
          const shown = loaded.subscriptions.filter((subscription) => {
            if (status && subscription.status !== status) return false;
            if (nearOnly) return (highestUse(subscription, planOf(subscription))?.share ?? 0) >= NEAR;
            return true;
          });
          return (
            <>
              <div class="filters">
                <label>
                  {t('subscriptions.status')}
                  <select name="status" value={status} onChange={(event) => setStatus(inputValue(event))}>
                    <option value="">{t('subscriptions.any')}</option>
                    <option value="active">{t('subscriptions.active')}</option>
                    <option value="suspended">{t('subscriptions.suspendedOption')}</option>
                    <option value="expired">{t('subscriptions.expired')}</option>
                  </select>
                </label>
                <label class="inline">
                  <input type="checkbox" name="near" checked={nearOnly} onChange={(event) => setNearOnly((event.target as HTMLInputElement).checked)} />{' '}
                  {t('subscriptions.nearOnly', { percent: NEAR * 100 })}
                </label>
              </div>
              {loaded.subscriptions.length === 0 ? (
                <p class="notice">{t('subscriptions.none')}</p>
              ) : shown.length === 0 ? (
                <p class="notice">{nearOnly ? t('subscriptions.noMatchNear') : t('subscriptions.noMatch')}</p>
              ) : (
                <div class="table-wrap">
                  <table class="stacked">
                    <caption class="visually-hidden">{t('subscriptions.caption')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('subscriptions.user')}</th>
                        <th scope="col">{t('subscriptions.planGroup')}</th>
                        <th scope="col">{t('subscriptions.status')}</th>
                        <th scope="col">{t('subscriptions.term')}</th>
                        <th scope="col">{t('subscriptions.quotaUse')}</th>
                        <th scope="col">{t('subscriptions.actions')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((subscription) => {
                        const plan = planOf(subscription);
                        const userName = subscription.userName ?? refName(subscription.user, users);
                        return (
                          <tr key={subscription.id} data-subscription={`${userName}/${plan?.name ?? refName(subscription.plan)}`}>
                            <td data-label={t('subscriptions.user')}>
                              <strong>{userName}</strong>
                            </td>
                            <td data-label={t('subscriptions.plan')}>
                              {subscription.planName ?? refName(subscription.plan, plans)}
                              <div class="small-text muted">{t('subscriptions.group', { group: refName(subscription.group) })}</div>
                            </td>
                            <td data-label={t('subscriptions.status')}>
                              <span class={`badge ${subscription.status === 'active' ? 'ok' : subscription.status === 'suspended' ? 'warn' : 'down'}`} data-status>
                                {statusName(subscription.status)}
                              </span>
                            </td>
                            <td class="small-text" data-label={t('subscriptions.term')}>
                              {dateTime(subscription.startsAt)} → {dateTime(subscription.expiresAt)}
                            </td>
                            <td data-label={t('subscriptions.quotaUse')} style={{ minWidth: '14rem' }}>
                              {QUOTA_WINDOWS.filter((window) => quotaOf(subscription, plan, window) !== null).map((window) => (
                                <QuotaBar
                                  key={window}
                                  label={WINDOW_LABEL[window]}
                                  used={subscription.usage?.[window] ?? 0}
                                  quota={quotaOf(subscription, plan, window)}
                                  resetsAt={window === 'total' ? null : subscription.resetsAt?.[window]}
                                />
                              ))}
                              {QUOTA_WINDOWS.every((window) => quotaOf(subscription, plan, window) === null) && <span class="muted small-text">{t('subscriptions.noQuota')}</span>}
                            </td>
                            <td>
                              <div class="actions">
                                {subscription.status === 'suspended' ? (
                                  <button type="button" class="small" onClick={() => setState(subscription, 'active', userName)}>
                                    {t('subscriptions.resume')}
                                  </button>
                                ) : subscription.status === 'active' ? (
                                  <button type="button" class="small danger" onClick={() => setState(subscription, 'suspended', userName)}>
                                    {t('subscriptions.suspend')}
                                  </button>
                                ) : null}
                                <button type="button" class="small" onClick={() => setExtending(subscription)}>
                                  {t('subscriptions.extend')}
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
              {granting && (
                <Drawer title={t('subscriptions.grantTitle')} onClose={() => setGranting(false)}>
                  <GrantForm
                    api={api}
                    users={loaded.users}
                    plans={loaded.plans}
                    onCancel={() => setGranting(false)}
                    onDone={(text) => {
                      setGranting(false);
                      setMessage(text);
                      data.reload();
                    }}
                  />
                </Drawer>
              )}
              {extending && (
                <Drawer title={t('subscriptions.extendTitle')} onClose={() => setExtending(null)}>
                  <ExtendForm
                    api={api}
                    subscription={extending}
                    onCancel={() => setExtending(null)}
                    onDone={(text) => {
                      setExtending(null);
                      setMessage(text);
                      data.reload();
                    }}
                  />
                </Drawer>
              )}
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

function GrantForm(props: { api: AdminApi; users: User[]; plans: Plan[]; onDone: (message: string) => void; onCancel: () => void }) {
  const [user, setUser] = useState(props.users[0]?.id ?? '');
  const [plan, setPlan] = useState(props.plans[0]?.id ?? '');
  const [startsAt, setStartsAt] = useState('');
  const submission = useSubmit();
  if (props.users.length === 0 || props.plans.length === 0) {
    return <p class="notice">{props.users.length === 0 ? t('subscriptions.needUser') : t('subscriptions.needPlan')}</p>;
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    await submission.run(async () => {
      await props.api.grant({ user, plan, ...(startsAt ? { startsAt: new Date(startsAt).toISOString() } : {}) });
      const userName = props.users.find((entry) => entry.id === user)?.name ?? user;
      const planName = props.plans.find((entry) => entry.id === plan)?.name ?? plan;
      props.onDone(t('subscriptions.granted', { user: userName, plan: planName }));
    });
  };
  return (
    <form class="form" onSubmit={submit}>
      <label>
        {t('subscriptions.user')}
        <select name="user" value={user} onChange={(event) => setUser(inputValue(event))}>
          {props.users.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
              {entry.email ? ` <${entry.email}>` : ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('subscriptions.plan')}
        <select name="plan" value={plan} onChange={(event) => setPlan(inputValue(event))}>
          {props.plans.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {t('subscriptions.planOption', { name: entry.name, group: refName(entry.group), count: entry.durationDays })}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('subscriptions.startsAt')}
        <input name="startsAt" type="datetime-local" value={startsAt} onInput={(event) => setStartsAt(inputValue(event))} />
        <span class="hint">{t('subscriptions.startsHint')}</span>
      </label>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={t('subscriptions.grantButton')} onCancel={props.onCancel} />
    </form>
  );
}

function ExtendForm(props: { api: AdminApi; subscription: Subscription; onDone: (message: string) => void; onCancel: () => void }) {
  const [days, setDays] = useState('30');
  const submission = useSubmit();
  const current = Date.parse(props.subscription.expiresAt ?? '');
  const submit = async (event: Event) => {
    event.preventDefault();
    const count = Number(days);
    if (!Number.isInteger(count) || count === 0) return submission.setError(t('subscriptions.badDays'));
    // Extending an expired subscription counts from now, so the days bought are days of use.
    const base = Math.max(current, count > 0 ? Date.now() : current);
    const expiresAt = new Date(base + count * 86_400_000).toISOString();
    await submission.run(async () => {
      await props.api.updateSubscription(props.subscription.id, { expiresAt, ...(props.subscription.status === 'expired' ? { status: 'active' } : {}) });
      props.onDone(t('subscriptions.runsUntil', { time: dateTime(expiresAt) }));
    });
  };
  return (
    <form class="form" onSubmit={submit}>
      <p>{t('subscriptions.nowEnds', { time: dateTime(props.subscription.expiresAt) })}</p>
      <label>
        {t('subscriptions.addDays')}
        <input name="days" type="number" step="1" value={days} onInput={(event) => setDays(inputValue(event))} />
        <span class="hint">{t('subscriptions.addDaysHint')}</span>
      </label>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={t('subscriptions.extendButton')} onCancel={props.onCancel} />
    </form>
  );
}
