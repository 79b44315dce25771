import { useMemo, useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { TimeChart } from '../components/time-chart.tsx';
import { loadAccountUsage } from '../lib/account-api.ts';
import { type PortalUsage as AccountUsage } from '../../../src/domain/account-portal-api.ts';
import { count, DASH, dateTime, ms, usd, visibleName } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { explainErrorCode } from '../i18n/api-errors.ts';
import { t } from '../i18n/i18n.ts';

/** The account's usage across its keys: per day, per model, and the recent requests. */
export function AccountUsagePage(props: { session: Extract<Session, { role: 'account' }> }) {
  const [days, setDays] = useState(7);
  const usage = useResource(() => loadAccountUsage(props.session, days), [props.session.csrf, days]);
  return (
    <section>
      <PageHead title={t('usage.title')} onRefresh={usage.reload}>
        <label class="inline">
          {t('usage.range')}
          <select name="days" value={String(days)} onChange={(event) => setDays(Number(inputValue(event)))}>
            <option value="1">{t('usage.today')}</option>
            <option value="7">{t('usage.days', { count: 7 })}</option>
            <option value="30">{t('usage.days', { count: 30 })}</option>
            <option value="90">{t('usage.days', { count: 90 })}</option>
          </select>
        </label>
      </PageHead>
      <AsyncView resource={usage} what={t('usage.what')}>
        {(data) => <UsageView usage={data} />}
      </AsyncView>
    </section>
  );
}

function UsageView({ usage }: { usage: AccountUsage }) {
  const totals = usage.byDay.reduce(
    (sum, day) => ({ requests: sum.requests + day.requests, errors: sum.errors + day.errors, cost: sum.cost + day.cost, tokens: sum.tokens + day.inputTokens + day.outputTokens }),
    { requests: 0, errors: 0, cost: 0, tokens: 0 },
  );
  const times = useMemo(() => usage.byDay.map((day) => Date.parse(`${day.day}T00:00:00Z`)), [usage]);
  const series = useMemo(() => [{ label: t('usage.cost'), values: usage.byDay.map((day) => day.cost), color: '#1d4ed8' }], [usage]);
  if (usage.recent.length === 0 && totals.requests === 0) {
    return <p class="notice">{t('usage.empty')}</p>;
  }
  return (
    <>
      <div class="cards">
        <dl class="stat card">
          <dt>{t('usage.requests')}</dt>
          <dd data-total-requests>{count(totals.requests)}</dd>
        </dl>
        <dl class="stat card">
          <dt>{t('usage.failed')}</dt>
          <dd>{count(totals.errors)}</dd>
        </dl>
        <dl class="stat card">
          <dt>{t('usage.tokens')}</dt>
          <dd>{count(totals.tokens)}</dd>
        </dl>
        <dl class="stat card">
          <dt>{t('usage.cost')}</dt>
          <dd>{usd(totals.cost)}</dd>
        </dl>
      </div>
      {usage.byDay.length > 1 && <TimeChart title={t('usage.costPerDay')} times={times} series={series} format={(value) => usd(value)} />}
      <div class="two-columns">
        <div class="card">
          <h2>{t('usage.perDay')}</h2>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('usage.day')}</th>
                  <th scope="col" class="num">{t('usage.requests')}</th>
                  <th scope="col" class="num">{t('usage.tokensInOut')}</th>
                  <th scope="col" class="num">{t('usage.cost')}</th>
                </tr>
              </thead>
              <tbody>
                {usage.byDay.filter((day) => day.requests > 0).map((day) => (
                  <tr key={day.day}>
                    <td>{day.day}</td>
                    <td class="num">{count(day.requests)}</td>
                    <td class="num">
                      {count(day.inputTokens)} / {count(day.outputTokens)}
                    </td>
                    <td class="num">{usd(day.cost)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <div class="card">
          <h2>{t('usage.perModel')}</h2>
          <div class="table-wrap">
            <table data-by-model>
              <thead>
                <tr>
                  <th scope="col">{t('usage.model')}</th>
                  <th scope="col" class="num">{t('usage.requests')}</th>
                  <th scope="col" class="num">{t('usage.tokensInOut')}</th>
                  <th scope="col" class="num">{t('usage.cost')}</th>
                </tr>
              </thead>
              <tbody>
                {usage.byModel.map((row) => (
                  <tr key={row.model ?? ''}>
                    <td>
                      <code>{visibleName(row.model)}</code>
                    </td>
                    <td class="num">{count(row.requests)}</td>
                    <td class="num">
                      {count(row.inputTokens)} / {count(row.outputTokens)}
                    </td>
                    <td class="num">{usd(row.cost)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </div>
      <h2>{t('usage.recent')}</h2>
      <div class="table-wrap">
        <table class="stacked" data-recent>
          <thead>
            <tr>
              <th scope="col">{t('usage.time')}</th>
              <th scope="col">{t('usage.key')}</th>
              <th scope="col">{t('usage.model')}</th>
              <th scope="col" class="num">{t('usage.status')}</th>
              <th scope="col" class="num">{t('usage.tokensInOut')}</th>
              <th scope="col" class="num">{t('usage.cost')}</th>
              <th scope="col" class="num">{t('usage.latency')}</th>
            </tr>
          </thead>
          <tbody>
            {usage.recent.map((row) => (
              <tr key={row.requestId} class={row.status >= 400 ? 'row-error' : ''}>
                <td class="small-text" data-label={t('usage.time')}>
                  {dateTime(row.time)}
                </td>
                <td data-label={t('usage.key')}>{row.keyName ?? DASH}</td>
                <td data-label={t('usage.model')}>
                  <code>{visibleName(row.model)}</code>
                </td>
                <td class="num" data-label={t('usage.status')}>
                  {row.status}
                  {row.errorCode && (
                    <div class="small-text" title={explainErrorCode(row.errorCode) ?? undefined}>
                      {row.errorCode}
                      {explainErrorCode(row.errorCode) && <div class="muted" data-error-explained>{explainErrorCode(row.errorCode)}</div>}
                    </div>
                  )}
                </td>
                <td class="num" data-label={t('usage.tokens')}>
                  {count(row.inputTokens)} / {count(row.outputTokens)}
                </td>
                <td class="num" data-label={t('usage.cost')}>
                  {usd(row.cost)}
                </td>
                <td class="num" data-label={t('usage.latency')}>
                  {ms(row.latencyMs)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
