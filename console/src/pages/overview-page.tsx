import { useMemo, useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { TimeChart } from '../components/time-chart.tsx';
import { call } from '../lib/api.ts';
import { count, DASH, ms, usd, visibleName } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { loadOpenStreams } from '../lib/open-streams.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { UsageSummary } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';

const RANGES = [
  ['1h', 'Last hour'],
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
] as const;

export function OverviewPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const [range, setRange] = useState<string>('24h');
  const summary = useResource(() => call<UsageSummary>(`/api/admin/insight/summary?range=${range}`, { bearer }), [range, bearer]);
  const openStreams = useResource(() => loadOpenStreams(bearer), [bearer, summary.data]);

  return (
    <section>
      <PageHead title="Overview" onRefresh={summary.reload}>
        <label class="inline">
          Range{' '}
          <select value={range} onChange={(event) => setRange(inputValue(event))}>
            {RANGES.map(([value, label]) => (
              <option value={value} key={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </PageHead>
      <AsyncView resource={summary} what="usage">
        {(data) => <SummaryView data={data} openStreams={openStreams.data ?? null} />}
      </AsyncView>
    </section>
  );
}

function SummaryView(props: { data: UsageSummary; openStreams: number | null }) {
  const { data } = props;
  const charts = useMemo(() => {
    const times = data.series.map((point) => Date.parse(point.start));
    return {
      times,
      requests: [
        { label: 'Requests', values: data.series.map((point) => point.requests), color: '#2563eb' },
        { label: 'Errors', values: data.series.map((point) => point.errors), color: '#dc2626' },
      ],
      tokens: [
        { label: 'Input tokens', values: data.series.map((point) => point.inputTokens), color: '#7c3aed' },
        { label: 'Output tokens', values: data.series.map((point) => point.outputTokens), color: '#0891b2' },
      ],
      cost: [{ label: 'Cost (USD)', values: data.series.map((point) => point.cost), color: '#059669' }],
      latency: [
        { label: 'p50', values: data.series.map((point) => point.latencyP50Ms), color: '#d97706' },
        { label: 'p95', values: data.series.map((point) => point.latencyP95Ms), color: '#be123c' },
      ],
    };
  }, [data]);
  const { totals } = data;
  return (
    <>
      <dl class="cards" aria-label="Totals for the range">
        <Card label="Requests" value={count(totals.requests)} />
        <Card label="Errors" value={`${count(totals.errors)}${totals.requests ? ` (${((totals.errors / totals.requests) * 100).toFixed(1)} %)` : ''}`} />
        <Card label="Tokens in / out" value={`${count(totals.inputTokens)} / ${count(totals.outputTokens)}`} />
        <Card label="Cost" value={usd(totals.cost)} />
        <Card label="Latency p50 / p95" value={`${ms(totals.latencyP50Ms)} / ${ms(totals.latencyP95Ms)}`} />
        <Card label="Open streams" value={props.openStreams === null ? DASH : count(props.openStreams)} />
      </dl>
      <div class="chart-grid">
        <TimeChart title="Requests and errors" times={charts.times} series={charts.requests} />
        <TimeChart title="Tokens" times={charts.times} series={charts.tokens} format={compact} />
        <TimeChart title="Cost" times={charts.times} series={charts.cost} format={(value) => usd(value)} />
        <TimeChart title="Latency" times={charts.times} series={charts.latency} format={(value) => ms(value)} />
      </div>
      <div class="two-columns">
        <TopTable title="Top models" rows={data.topModels} nameHeader="Model" noneLabel="(no model: refused before routing)" />
        <TopTable title="Top keys" rows={data.topKeys} nameHeader="Key" noneLabel="(no key: refused before authentication)" />
      </div>
    </>
  );
}

function Card(props: { label: string; value: string }) {
  return (
    <div class="card stat">
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

function TopTable(props: { title: string; nameHeader: string; rows: UsageSummary['topModels']; noneLabel: string }) {
  return (
    <div class="card">
      <h2>{props.title}</h2>
      {props.rows.length === 0 ? (
        <p class="muted">No requests in this range.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{props.nameHeader}</th>
                <th scope="col" class="num">Requests</th>
                <th scope="col" class="num">Errors</th>
                <th scope="col" class="num">Tokens</th>
                <th scope="col" class="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={row.id ?? 'none'}>
                  <td>{row.name === null && row.id === null ? <span class="muted">{props.noneLabel}</span> : visibleName(row.name ?? row.id)}</td>
                  <td class="num">{count(row.requests)}</td>
                  <td class="num">{count(row.errors)}</td>
                  <td class="num">{compact(row.inputTokens + row.outputTokens)}</td>
                  <td class="num">{usd(row.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function compact(value: number): string {
  return Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}
