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

/** The account's usage across its keys: per day, per model, and the recent requests. */
export function AccountUsagePage(props: { session: Extract<Session, { role: 'account' }> }) {
  const [days, setDays] = useState(7);
  const usage = useResource(() => loadAccountUsage(props.session, days), [props.session.csrf, days]);
  return (
    <section>
      <PageHead title="Usage" onRefresh={usage.reload}>
        <label class="inline">
          Range
          <select name="days" value={String(days)} onChange={(event) => setDays(Number(inputValue(event)))}>
            <option value="1">Today</option>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
          </select>
        </label>
      </PageHead>
      <AsyncView resource={usage} what="your usage">
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
  const series = useMemo(() => [{ label: 'Cost', values: usage.byDay.map((day) => day.cost), color: '#1d4ed8' }], [usage]);
  if (usage.recent.length === 0 && totals.requests === 0) {
    return <p class="notice">No requests in this range yet. Create a key, connect a client, and your calls show up here within seconds.</p>;
  }
  return (
    <>
      <div class="cards">
        <dl class="stat card">
          <dt>Requests</dt>
          <dd data-total-requests>{count(totals.requests)}</dd>
        </dl>
        <dl class="stat card">
          <dt>Failed</dt>
          <dd>{count(totals.errors)}</dd>
        </dl>
        <dl class="stat card">
          <dt>Tokens</dt>
          <dd>{count(totals.tokens)}</dd>
        </dl>
        <dl class="stat card">
          <dt>Cost</dt>
          <dd>{usd(totals.cost)}</dd>
        </dl>
      </div>
      {usage.byDay.length > 1 && <TimeChart title="Cost per day (UTC)" times={times} series={series} format={(value) => usd(value)} />}
      <div class="two-columns">
        <div class="card">
          <h2>Per day</h2>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  <th scope="col" class="num">Requests</th>
                  <th scope="col" class="num">Tokens in / out</th>
                  <th scope="col" class="num">Cost</th>
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
          <h2>Per model</h2>
          <div class="table-wrap">
            <table data-by-model>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" class="num">Requests</th>
                  <th scope="col" class="num">Tokens in / out</th>
                  <th scope="col" class="num">Cost</th>
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
      <h2>Recent requests</h2>
      <div class="table-wrap">
        <table class="stacked" data-recent>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Key</th>
              <th scope="col">Model</th>
              <th scope="col" class="num">Status</th>
              <th scope="col" class="num">Tokens in / out</th>
              <th scope="col" class="num">Cost</th>
              <th scope="col" class="num">Latency</th>
            </tr>
          </thead>
          <tbody>
            {usage.recent.map((row) => (
              <tr key={row.requestId} class={row.status >= 400 ? 'row-error' : ''}>
                <td class="small-text" data-label="Time">
                  {dateTime(row.time)}
                </td>
                <td data-label="Key">{row.keyName ?? DASH}</td>
                <td data-label="Model">
                  <code>{visibleName(row.model)}</code>
                </td>
                <td class="num" data-label="Status">
                  {row.status}
                  {row.errorCode && <div class="small-text">{row.errorCode}</div>}
                </td>
                <td class="num" data-label="Tokens">
                  {count(row.inputTokens)} / {count(row.outputTokens)}
                </td>
                <td class="num" data-label="Cost">
                  {usd(row.cost)}
                </td>
                <td class="num" data-label="Latency">
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
