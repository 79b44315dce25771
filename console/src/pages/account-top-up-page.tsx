import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { PageHead } from '../components/page-head.tsx';
import { accountCall } from '../lib/account-api.ts';
import { dateTime, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';
import { orderStatusName } from '../i18n/status-name.ts';
import { AccountReferralCard, type Referral } from './account-referral-card.tsx';
import { AccountWithdrawCard } from './account-withdraw-card.tsx';
import { AccountPlansCard, TopUpHints, type CheckoutOptions } from './account-plans-card.tsx';

interface OrderRow {
  id: string;
  provider: string;
  status: string;
  amountUsd: number;
  creditUsd: number;
  bonusUsd: number;
  refundedUsd: number;
  currency: string;
  chargeAmount: number;
  checkoutUrl: string | null;
  createdAt: string;
}

type AccountSession = Extract<Session, { role: 'account' }>;

/** The orders money moved for: these have a receipt (on the Statement page). */
const RECEIPT_STATES = new Set(['paid', 'credited', 'refunded', 'partially_refunded']);

/** Top up the wallet through a payment provider, follow the orders (receipts), and the invite link with its rebates. */
export function AccountTopUpPage(props: { session: AccountSession }) {
  const data = useResource(async () => {
    const [orders, referral] = await Promise.all([accountCall<{ data: OrderRow[] }>(props.session, '/orders'), accountCall<Referral>(props.session, '/referral')]);
    return { orders: orders.data, referral };
  }, [props.session.csrf]);
  const options = useResource(() => accountCall<CheckoutOptions>(props.session, '/checkout-options'), [props.session.csrf]);
  const [chosen, setProvider] = useState('');
  const [amount, setAmount] = useState('10');
  const [promotion, setPromotion] = useState('');
  const enabled = options.data?.providers ?? [];
  // The first enabled provider until the account picks one.
  const provider = enabled.some((entry) => entry.name === chosen) ? chosen : (enabled[0]?.name ?? 'stripe');
  const instructions = enabled.find((entry) => entry.name === provider)?.instructions;
  const submission = useSubmit();
  const pay = (body: Record<string, unknown>) =>
    submission.run(async () => {
      const order = await accountCall<OrderRow>(props.session, '/orders', {
        method: 'POST',
        body: { provider, ...body, ...(promotion.trim() ? { promotionCode: promotion.trim() } : {}) },
      });
      if (order.checkoutUrl) window.location.assign(order.checkoutUrl);
      else data.reload();
    });
  const submit = async (event: Event) => {
    event.preventDefault();
    await pay({ amountUsd: Number(amount) });
  };
  return (
    <section>
      <PageHead title={t('topUp.title')} onRefresh={data.reload} />
      <form class="card form" onSubmit={submit} style={{ maxWidth: '36rem' }} data-top-up-form>
        <label>
          {t('topUp.payWith')}
          <select name="provider" value={provider} onChange={(event) => setProvider(inputValue(event))}>
            {enabled.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {t(`topUp.${entry.name}`)}
              </option>
            ))}
          </select>
        </label>
        {options.data && enabled.length === 0 && <p class="notice">{t('topUp.noProvider')}</p>}
        {instructions && <p class="muted" data-instructions>{instructions}</p>}
        <label>
          {t('topUp.amount')}
          <input name="amount" type="number" min="0" step="0.01" value={amount} onInput={(event) => setAmount(inputValue(event))} />
        </label>
        {options.data && <TopUpHints topUp={options.data.topUp} onPick={(usdAmount) => setAmount(String(usdAmount))} />}
        <label>
          {t('topUp.promotion')}
          <input name="promotion" value={promotion} autoComplete="off" onInput={(event) => setPromotion(inputValue(event))} />
        </label>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        <div class="actions">
          <button type="submit" class="primary" disabled={submission.busy}>
            {t('topUp.pay')}
          </button>
        </div>
      </form>
      {options.data && options.data.plans.length > 0 && (
        <AccountPlansCard plans={options.data.plans} busy={submission.busy || enabled.length === 0} onBuy={(planId) => pay({ planId })} />
      )}
      <AsyncView resource={data} what={t('topUp.what')}>
        {(loaded) => (
          <>
            <AccountReferralCard referral={loaded.referral} />
            {loaded.referral.withdrawals.enabled && (
              <AccountWithdrawCard
                session={props.session}
                withdrawableUsd={loaded.referral.withdrawableUsd}
                minUsd={loaded.referral.withdrawals.minUsd}
                onChange={data.reload}
              />
            )}
            <table class="table" data-orders>
              <thead>
                <tr>
                  <th>{t('topUp.order')}</th>
                  <th>{t('topUp.date')}</th>
                  <th>{t('topUp.paid')}</th>
                  <th>{t('topUp.credit')}</th>
                  <th>{t('topUp.status')}</th>
                </tr>
              </thead>
              <tbody>
                {loaded.orders.map((order) => (
                  <tr key={order.id} data-order={order.id}>
                    <td>
                      <code>{order.id}</code>
                    </td>
                    <td>{dateTime(order.createdAt)}</td>
                    <td>
                      {usd(order.amountUsd)} ({order.chargeAmount.toFixed(2)} {order.currency.toUpperCase()})
                    </td>
                    <td>{usd(order.creditUsd)}</td>
                    <td data-status>
                      {orderStatusName(order.status)}
                      {order.refundedUsd > 0 ? t('topUp.refunded', { amount: usd(order.refundedUsd) }) : ''}
                      {RECEIPT_STATES.has(order.status) && (
                        <>
                          {' '}
                          <a href={`/console/statement?order=${encodeURIComponent(order.id)}`} data-receipt-link>
                            {t('topUp.receipt')}
                          </a>
                        </>
                      )}
                      {order.status === 'pending' && order.checkoutUrl && (
                        <>
                          {' '}
                          <a href={order.checkoutUrl}>{t('topUp.payLink')}</a>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </AsyncView>
    </section>
  );
}
