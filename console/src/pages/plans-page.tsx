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
    if (!confirm(`Delete plan "${plan.name}"? Existing subscriptions must have ended first.`)) return;
    try {
      await api.deletePlan(plan.id);
      setMessage(`Plan ${plan.name} deleted.`);
      data.reload();
    } catch (error) {
      setMessage(`Could not delete ${plan.name}: ${errorMessage(error)}`);
    }
  };

  return (
    <section>
      <PageHead title="Plans" onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setPanel({})}>
          Create plan
        </button>
      </PageHead>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what="plans">
        {(loaded) => (
          <>
            {loaded.plans.length === 0 ? (
              <p class="notice">No plans yet. A plan sells access to one group for a number of days, with quotas per day, week, month or term.</p>
            ) : (
              <div class="table-wrap">
                <table class="stacked">
                  <caption class="visually-hidden">Plans</caption>
                  <thead>
                    <tr>
                      <th scope="col">Plan</th>
                      <th scope="col">Group</th>
                      <th scope="col" class="num">Term</th>
                      <th scope="col">Quotas</th>
                      <th scope="col" class="num">Price</th>
                      <th scope="col" class="num">Subscriptions (active / all)</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {loaded.plans.map((plan) => {
                      const held = loaded.subscriptions.filter((subscription) => refId(subscription.plan) === plan.id || refName(subscription.plan) === plan.name);
                      const active = held.filter((subscription) => subscription.status === 'active').length;
                      return (
                        <tr key={plan.id} data-plan={plan.name}>
                          <td data-label="Plan">
                            <strong>{plan.name}</strong>
                            {plan.description && <div class="small-text muted">{plan.description}</div>}
                          </td>
                          <td data-label="Group">{refName(plan.group)}</td>
                          <td class="num" data-label="Term">
                            {plan.durationDays} days
                          </td>
                          <td class="small-text" data-label="Quotas">
                            {quotaText(plan.quota ?? {})}
                          </td>
                          <td class="num" data-label="Price">
                            {usd(plan.price, 'not listed')}
                          </td>
                          <td class="num" data-label="Subscriptions" data-subscription-count>
                            {active} / {held.length}
                          </td>
                          <td>
                            <div class="actions">
                              <button type="button" class="small" onClick={() => setPanel({ plan })}>
                                Edit {plan.name}
                              </button>
                              <button type="button" class="small danger" onClick={() => remove(plan)}>
                                Delete
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
              <Drawer title={panel.plan ? `Edit plan ${panel.plan.name}` : 'Create a plan'} onClose={() => setPanel(null)}>
                <PlanForm
                  api={api}
                  groups={loaded.groups}
                  {...(panel.plan ? { plan: panel.plan } : {})}
                  onCancel={() => setPanel(null)}
                  onSaved={(plan, created) => {
                    setMessage(`Plan ${plan.name} ${created ? 'created' : 'saved'}.`);
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
