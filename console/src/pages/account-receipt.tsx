import type { ComponentChildren } from 'preact';
import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { accountCall } from '../lib/account-api.ts';
import { dateTime, usd } from '../lib/format.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';
import { orderStatusName } from '../i18n/status-name.ts';

/** An order as `GET /api/account/orders/{id}` returns it (USD, the charge in the provider's currency). */
interface ReceiptOrder {
  id: string;
  provider: string;
  status: string;
  planId: string | null;
  amountUsd: number;
  creditUsd: number;
  bonusUsd: number;
  refundedUsd: number;
  currency: string;
  chargeAmount: number;
  promotionCode: string | null;
  createdAt: string;
  paidAt: string | null;
}

type AccountSession = Extract<Session, { role: 'account' }>;

/**
 * One order's receipt, on the Statement page (`?order=`): what was paid and how, what the wallet
 * got, what was refunded. It prints on its own like the statement (the print style sheet hides the
 * console around the sheet).
 */
export function AccountReceipt(props: { session: AccountSession; orderId: string }) {
  const data = useResource(() => accountCall<ReceiptOrder>(props.session, `/orders/${encodeURIComponent(props.orderId)}`), [props.session.csrf, props.orderId]);
  return (
    <section class="statement">
      <PageHead title={t('receipt.title')} onRefresh={data.reload}>
        <div class="actions no-print">
          <button type="button" class="small" onClick={() => window.print()} data-print>
            {t('statement.print')}
          </button>
          <a class="button small" href="/console/statement">
            {t('receipt.wholeStatement')}
          </a>
        </div>
      </PageHead>
      <AsyncView resource={data} what={t('receipt.what')}>
        {(order) => <ReceiptSheet order={order} name={props.session.name} />}
      </AsyncView>
    </section>
  );
}

function ReceiptSheet(props: { order: ReceiptOrder; name: string }) {
  const { order } = props;
  const row = (label: string, value: ComponentChildren, mark?: string) => (
    <tr {...(mark ? { [`data-${mark}`]: '' } : {})}>
      <th scope="row">{label}</th>
      <td>{value}</td>
    </tr>
  );
  return (
    <article class="card statement-sheet" data-receipt={order.id}>
      <h2>{t('receipt.heading', { order: order.id })}</h2>
      <p>{t('statement.account', { name: props.name })}</p>
      <table class="table">
        <tbody>
          {row(t('receipt.date'), dateTime(order.paidAt ?? order.createdAt))}
          {row(t('receipt.item'), order.planId ? t('receipt.plan', { plan: order.planId }) : t('receipt.topUp'))}
          {row(t('receipt.method'), t(`topUp.${order.provider}`))}
          {row(t('receipt.paid'), `${usd(order.amountUsd)} (${order.chargeAmount.toFixed(2)} ${order.currency.toUpperCase()})`, 'paid')}
          {order.promotionCode && row(t('receipt.promotion'), order.promotionCode)}
          {!order.planId && row(t('receipt.credit'), usd(order.creditUsd), 'credit')}
          {order.bonusUsd > 0 && row(t('receipt.bonus'), usd(order.bonusUsd))}
          {order.refundedUsd > 0 && row(t('receipt.refunded'), `-${usd(order.refundedUsd)}`, 'refunded')}
          {row(t('receipt.status'), orderStatusName(order.status), 'status')}
        </tbody>
      </table>
    </article>
  );
}
