import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { Drawer } from '../components/drawer.tsx';
import { PageHead } from '../components/page-head.tsx';
import { quotaText, refId, refName } from '../lib/account-format.ts';
import { type AdminPlanView as Plan } from '../../../src/domain/account-admin-api.ts';
import { adminApi } from '../lib/accounts-admin.ts';
import { call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { usd } from '../lib/format.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { Group, ListAnswer } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { PlanForm } from './plan-form.tsx';
import { t } from '../i18n/i18n.ts';

/** What the operator sells: plans with their group, term, quotas and price, and how many hold each. */
export function PlansPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const api = adminApi(token);
  const data = useResource(async () => {
    const [plans, subscriptions, groups] = await Promise.all([
      api.plans(),
      api.subscriptions(),
      call<ListAnswer<Group>>('/api/admin/groups', { bearer: token }).then((answer) => answer.data),
    ]);
    return { plans, subscriptions, groups };
  }, [token]);
  const [panel, setPanel] = useState<{ plan?: Plan } | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const remove = async (plan: Plan) => {
    if (!confirm(t('plans.confirmDelete', { name: plan.name }))) return;
    try {
      await api.deletePlan(plan.id);
      setMessage(t('plans.deleted', { name: plan.name }));
      data.reload();
    } catch (error) {
      setMessage(t('plans.couldNotDelete', { name: plan.name, message: errorMessage(error) }));
    }
  };

  return (
    <section>
      <PageHead title={t('plans.title')} onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setPanel({})}>
          {t('plans.create')}
        </button>
      </PageHead>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what={t('plans.what')}>
        {(loaded) => (
          <>
            {loaded.plans.length === 0 ? (
              <p class="notice">{t('plans.none')}</p>
            ) : (
              <div class="table-wrap">
                <table class="stacked">
                  <caption class="visually-hidden">{t('plans.caption')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('plans.plan')}</th>
                      <th scope="col">{t('plans.group')}</th>
                      <th scope="col" class="num">{t('plans.term')}</th>
                      <th scope="col">{t('plans.quotas')}</th>
                      <th scope="col" class="num">{t('plans.price')}</th>
                      <th scope="col" class="num">{t('plans.subscriptions')}</th>
                      <th scope="col">{t('plans.actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {loaded.plans.map((plan) => {
                      const held = loaded.subscriptions.filter((subscription) => refId(subscription.plan) === plan.id || refName(subscription.plan) === plan.name);
                      const active = held.filter((subscription) => subscription.status === 'active').length;
                      return (
                        <tr key={plan.id} data-plan={plan.name}>
                          <td data-label={t('plans.plan')}>
                            <strong>{plan.name}</strong>
                            {plan.description && <div class="small-text muted">{plan.description}</div>}
                          </td>
                          <td data-label={t('plans.group')}>{refName(plan.group)}</td>
                          <td class="num" data-label={t('plans.term')}>
                            {t('plans.days', { count: plan.durationDays })}
                          </td>
                          <td class="small-text" data-label={t('plans.quotas')}>
                            {quotaText(plan.quota ?? {})}
                          </td>
                          <td class="num" data-label={t('plans.price')}>
                            {usd(plan.price, t('plans.notListed'))}
                          </td>
                          <td class="num" data-label={t('plans.subscriptionsShort')} data-subscription-count>
                            {active} / {held.length}
                          </td>
                          <td>
                            <div class="actions">
                              <button type="button" class="small" onClick={() => setPanel({ plan })}>
                                {t('plans.edit', { name: plan.name })}
                              </button>
                              <button type="button" class="small danger" onClick={() => remove(plan)}>
                                {t('plans.delete')}
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
            {panel && (
              <Drawer title={panel.plan ? t('plans.editPlan', { name: panel.plan.name }) : t('plans.createTitle')} onClose={() => setPanel(null)}>
                <PlanForm
                  api={api}
                  groups={loaded.groups}
                  {...(panel.plan ? { plan: panel.plan } : {})}
                  onCancel={() => setPanel(null)}
                  onSaved={(plan, created) => {
                    setMessage(t(created ? 'plans.created' : 'plans.saved', { name: plan.name }));
                    setPanel(null);
                    data.reload();
                  }}
                />
              </Drawer>
            )}
          </>
        )}
      </AsyncView>
    </section>
  );
}
