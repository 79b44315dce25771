import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { accountCall } from '../lib/account-api.ts';
import { count, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';
import { AccountReceipt } from './account-receipt.tsx';
import type { Statement } from '../../../src/domain/statement.ts';

type AccountSession = Extract<Session, { role: 'account' }>;

const dollars = (micros: number) => usd(micros / 1_000_000);
const thisMonth = () => new Date().toISOString().slice(0, 7);

/**
 * The monthly statement as a printable page: the print style sheet (styles.css, `@media print`)
 * hides the console around it and the controls marked `no-print`, so the browser's Print (or
 * "Save as PDF") gives a clean page. The CSV is the same statement for a spreadsheet. With
 * `?order=` (the Top-up page's receipt links) it shows that order's receipt instead.
 */
export function AccountStatementPage(props: { session: AccountSession }) {
  const orderId = new URLSearchParams(location.search).get('order');
  return orderId ? <AccountReceipt session={props.session} orderId={orderId} /> : <MonthlyStatement session={props.session} />;
}

function MonthlyStatement(props: { session: AccountSession }) {
  const [month, setMonth] = useState(thisMonth);
  const data = useResource(() => accountCall<Statement>(props.session, `/statements/${month}`), [props.session.csrf, month]);
  return (
    <section class="statement">
      <PageHead title={t('statement.title')} onRefresh={data.reload}>
        <div class="actions no-print">
          <label>
            {t('statement.month')}
            <input type="month" name="month" value={month} onInput={(event) => inputValue(event) && setMonth(inputValue(event))} />
          </label>
          <button type="button" class="small" onClick={() => window.print()} data-print>
            {t('statement.print')}
          </button>
          <a class="button small" href={`/api/account/statements/${month}?format=csv`} download>
            {t('statement.csv')}
          </a>
        </div>
      </PageHead>
      <AsyncView resource={data} what={t('statement.what')}>
        {(statement) => <StatementSheet statement={statement} name={props.session.name} />}
      </AsyncView>
    </section>
  );
}

function StatementSheet(props: { statement: Statement; name: string }) {
  const { statement } = props;
  const row = (label: string, micros: number, mark?: string) => (
    <tr {...(mark ? { [`data-${mark}`]: '' } : {})}>
      <th scope="row">{label}</th>
      <td class="num">{dollars(micros)}</td>
    </tr>
  );
  return (
    <article class="card statement-sheet" data-statement={statement.month}>
      <h2>{t('statement.heading', { month: statement.month })}</h2>
      <p>{t('statement.account', { name: props.name })}</p>
      <table class="table">
        <caption>{t('statement.moneyIn')}</caption>
        <tbody>
          {row(t('statement.topUps'), statement.topUpsMicros, 'top-ups')}
          {row(t('statement.bonuses'), statement.bonusesMicros)}
          {row(t('statement.plans'), statement.plansMicros)}
          {row(t('statement.rebates'), statement.rebatesMicros)}
        </tbody>
      </table>
      <table class="table">
        <caption>{t('statement.moneyOut')}</caption>
        <tbody>
          {row(t('statement.refunds'), statement.refundsMicros, 'refunds')}
          {row(t('statement.withdrawals'), statement.withdrawalsMicros)}
          {row(t('statement.adjustments'), statement.adjustmentsMicros)}
        </tbody>
      </table>
      <table class="table">
        <caption>{t('statement.usage')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('statement.model')}</th>
            <th scope="col">{t('statement.requests')}</th>
            <th scope="col">{t('statement.cost')}</th>
          </tr>
        </thead>
        <tbody>
          {statement.usage.length === 0 ? (
            <tr>
              <td colSpan={3}>{t('statement.noUsage')}</td>
            </tr>
          ) : (
            statement.usage.map((entry) => (
              <tr key={entry.model}>
                <td>{entry.model}</td>
                <td class="num">{count(entry.requests)}</td>
                <td class="num">{dollars(entry.costMicros)}</td>
              </tr>
            ))
          )}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              {t('statement.usageTotal')}
            </th>
            <td class="num">{dollars(statement.usageMicros)}</td>
          </tr>
        </tfoot>
      </table>
      <p class="statement-closing">
        {t('statement.closing')}: <strong data-closing>{dollars(statement.closingBalanceMicros)}</strong>
      </p>
    </article>
  );
}
