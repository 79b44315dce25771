import { useMemo, useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { TimeChart } from '../components/time-chart.tsx';
import { call } from '../lib/api.ts';
import { count, DASH, ms, numberLocale, usd, visibleName } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { loadOpenStreams } from '../lib/open-streams.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { UsageSummary } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';

/** Each range's API value and its label's catalogue key. */
const RANGES = [
  ['1h', 'overview.lastHour'],
  ['24h', 'overview.last24h'],
  ['7d', 'overview.last7d'],
  ['30d', 'overview.last30d'],
] as const;

export function OverviewPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const [range, setRange] = useState<string>('24h');
  const summary = useResource(() => call<UsageSummary>(`/api/admin/insight/summary?range=${range}`, { bearer }), [range, bearer]);
  const openStreams = useResource(() => loadOpenStreams(bearer), [bearer, summary.data]);

  return (
    <section>
      <PageHead title={t('overview.title')} onRefresh={summary.reload}>
        <label class="inline">
          {t('overview.range')}{' '}
          <select value={range} onChange={(event) => setRange(inputValue(event))}>
            {RANGES.map(([value, label]) => (
              <option value={value} key={value}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
      </PageHead>
      <AsyncView resource={summary} what={t('overview.what')}>
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
        { label: t('overview.requests'), values: data.series.map((point) => point.requests), color: '#2563eb' },
        { label: t('overview.errors'), values: data.series.map((point) => point.errors), color: '#dc2626' },
      ],
      tokens: [
        { label: t('overview.inputTokens'), values: data.series.map((point) => point.inputTokens), color: '#7c3aed' },
        { label: t('overview.outputTokens'), values: data.series.map((point) => point.outputTokens), color: '#0891b2' },
      ],
      cost: [{ label: t('overview.costUsd'), values: data.series.map((point) => point.cost), color: '#059669' }],
      latency: [
        { label: 'p50', values: data.series.map((point) => point.latencyP50Ms), color: '#d97706' },
        { label: 'p95', values: data.series.map((point) => point.latencyP95Ms), color: '#be123c' },
      ],
    };
  }, [data]);
  const { totals } = data;
  return (
    <>
      <dl class="cards" aria-label={t('overview.totals')}>
        <Card label={t('overview.requests')} value={count(totals.requests)} />
        <Card label={t('overview.errors')} value={`${count(totals.errors)}${totals.requests ? ` (${((totals.errors / totals.requests) * 100).toFixed(1)} %)` : ''}`} />
        <Card label={t('overview.tokensInOut')} value={`${count(totals.inputTokens)} / ${count(totals.outputTokens)}`} />
        <Card label={t('overview.cost')} value={usd(totals.cost)} />
        <Card label={t('overview.latency')} value={`${ms(totals.latencyP50Ms)} / ${ms(totals.latencyP95Ms)}`} />
        <Card label={t('overview.openStreams')} value={props.openStreams === null ? DASH : count(props.openStreams)} />
      </dl>
      <div class="chart-grid">
        <TimeChart title={t('overview.requestsErrors')} times={charts.times} series={charts.requests} />
        <TimeChart title={t('overview.tokens')} times={charts.times} series={charts.tokens} format={compact} />
        <TimeChart title={t('overview.cost')} times={charts.times} series={charts.cost} format={(value) => usd(value)} />
        <TimeChart title={t('overview.latencyChart')} times={charts.times} series={charts.latency} format={(value) => ms(value)} />
      </div>
      <div class="two-columns">
        <TopTable title={t('overview.topModels')} rows={data.topModels} nameHeader={t('overview.model')} noneLabel={t('overview.noModel')} />
        <TopTable title={t('overview.topKeys')} rows={data.topKeys} nameHeader={t('overview.key')} noneLabel={t('overview.noKey')} />
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
        <p class="muted">{t('overview.none')}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{props.nameHeader}</th>
                <th scope="col" class="num">{t('overview.requests')}</th>
                <th scope="col" class="num">{t('overview.errors')}</th>
                <th scope="col" class="num">{t('overview.tokens')}</th>
                <th scope="col" class="num">{t('overview.cost')}</th>
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
  return Intl.NumberFormat(numberLocale(), { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}
