import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { dateTime, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';
import { orderStatusName } from '../i18n/status-name.ts';

interface AdminOrder {
  id: string;
  userId: string;
  provider: string;
  status: string;
  amountUsd: number;
  creditUsd: number;
  refundedUsd: number;
  createdAt: string;
}

const STATUSES = ['', 'pending', 'paid', 'credited', 'expired', 'refunded', 'partially_refunded'];

/** Payment orders with filters and totals; refund a credited order, mark a manual one paid. */
export function OrdersPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const [status, setStatus] = useState('');
  const [user, setUser] = useState('');
  const query = new URLSearchParams({ ...(status ? { status } : {}), ...(user.trim() ? { user: user.trim() } : {}) }).toString();
  const data = useResource(async () => (await call<{ data: AdminOrder[] }>(`/api/admin/orders?${query}`, { bearer })).data, [bearer, query]);
  const action = useSubmit();
  const act = (order: AdminOrder, what: 'refund' | 'mark-paid') =>
    action.run(async () => {
      const amount = what === 'refund' ? window.prompt(t('orders.refundPrompt', { amount: usd(order.amountUsd - order.refundedUsd) }), '') : '';
      if (amount === null) return;
      await call(`/api/admin/orders/${order.id}/${what}`, { method: 'POST', bearer, body: amount ? { amountUsd: Number(amount) } : {} });
      data.reload();
    });
  return (
    <section>
      <PageHead title={t('orders.title')} onRefresh={data.reload} />
      <div class="card form" style={{ display: 'flex', gap: '1rem' }}>
        <label>
          {t('orders.status')}
          <select value={status} onChange={(event) => setStatus(inputValue(event))}>
            {STATUSES.map((entry) => (
              <option key={entry} value={entry}>
                {entry ? orderStatusName(entry) : t('orders.any')}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('orders.user')}
          <input value={user} placeholder={t('orders.userPlaceholder')} onInput={(event) => setUser(inputValue(event))} />
        </label>
      </div>
      {action.error && <ErrorNotice>{action.error}</ErrorNotice>}
      <AsyncView resource={data} what={t('orders.what')}>
        {(orders) => (
          <table class="table" data-admin-orders>
            <thead>
              <tr>
                <th>{t('orders.order')}</th>
                <th>{t('orders.user')}</th>
                <th>{t('orders.provider')}</th>
                <th>{t('orders.date')}</th>
                <th>{t('orders.paid')}</th>
                <th>{t('orders.status')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.id} data-order={order.id}>
                  <td>
                    <code>{order.id}</code>
                  </td>
                  <td>{order.userId}</td>
                  <td>{order.provider}</td>
                  <td>{dateTime(order.createdAt)}</td>
                  <td>{usd(order.amountUsd)}</td>
                  <td>
                    {orderStatusName(order.status)}
                    {order.refundedUsd > 0 ? t('orders.refunded', { amount: usd(order.refundedUsd) }) : ''}
                  </td>
                  <td>
                    {(order.status === 'credited' || order.status === 'partially_refunded') && (
                      <button type="button" onClick={() => act(order, 'refund')}>
                        {t('orders.refund')}
                      </button>
                    )}
                    {order.provider === 'manual' && order.status === 'pending' && (
                      <button type="button" onClick={() => act(order, 'mark-paid')}>
                        {t('orders.markPaid')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td colSpan={4}>{t('orders.total', { count: orders.length })}</td>
                <td>{usd(orders.reduce((sum, order) => sum + order.amountUsd, 0))}</td>
                <td colSpan={2}>{t('orders.refundedTotal', { amount: usd(orders.reduce((sum, order) => sum + order.refundedUsd, 0)) })}</td>
              </tr>
            </tfoot>
          </table>
        )}
      </AsyncView>
    </section>
  );
}
