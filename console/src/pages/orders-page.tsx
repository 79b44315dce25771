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
      const amount = what === 'refund' ? window.prompt(`Refund how much of ${usd(order.amountUsd - order.refundedUsd)}? (empty: all)`, '') : '';
      if (amount === null) return;
      await call(`/api/admin/orders/${order.id}/${what}`, { method: 'POST', bearer, body: amount ? { amountUsd: Number(amount) } : {} });
      data.reload();
    });
  return (
    <section>
      <PageHead title="Orders" onRefresh={data.reload} />
      <div class="card form" style={{ display: 'flex', gap: '1rem' }}>
        <label>
          Status
          <select value={status} onChange={(event) => setStatus(inputValue(event))}>
            {STATUSES.map((entry) => (
              <option key={entry} value={entry}>
                {entry || 'any'}
              </option>
            ))}
          </select>
        </label>
        <label>
          User
          <input value={user} placeholder="id or name" onInput={(event) => setUser(inputValue(event))} />
        </label>
      </div>
      {action.error && <ErrorNotice>{action.error}</ErrorNotice>}
      <AsyncView resource={data} what="orders">
        {(orders) => (
          <table class="table" data-admin-orders>
            <thead>
              <tr>
                <th>Order</th>
                <th>User</th>
                <th>Provider</th>
                <th>Date</th>
                <th>Paid</th>
                <th>Status</th>
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
                    {order.status}
                    {order.refundedUsd > 0 ? ` (${usd(order.refundedUsd)} refunded)` : ''}
                  </td>
                  <td>
                    {(order.status === 'credited' || order.status === 'partially_refunded') && (
                      <button type="button" onClick={() => act(order, 'refund')}>
                        Refund
                      </button>
                    )}
                    {order.provider === 'manual' && order.status === 'pending' && (
                      <button type="button" onClick={() => act(order, 'mark-paid')}>
                        Mark paid
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td colSpan={4}>Total ({orders.length} orders)</td>
                <td>{usd(orders.reduce((sum, order) => sum + order.amountUsd, 0))}</td>
                <td colSpan={2}>{usd(orders.reduce((sum, order) => sum + order.refundedUsd, 0))} refunded</td>
              </tr>
            </tfoot>
          </table>
        )}
      </AsyncView>
    </section>
  );
}
