import { useEffect, useState } from 'preact/hooks';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { list, usd } from '../lib/format.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { t } from '../i18n/i18n.ts';
import type { MarginAnswer, MarginDimension } from '../../../src/domain/ledger-entry.ts';

const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * Revenue (what payers were charged), cost (what every upstream attempt cost, at the channels'
 * cost prices) and margin per UTC day × model, channel, group or account. The CSV and JSONL
 * exports are the server's rows for the same filters, so their sums are the totals shown here.
 */
export function MarginPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const [filters, setFilters] = useState({ from: isoDay(Date.now() - 29 * DAY_MS), to: isoDay(Date.now()), by: 'model' as MarginDimension, model: '', channel: '', group: '', account: '' });
  const [answer, setAnswer] = useState<MarginAnswer | null>(null);
  const [unpriced, setUnpriced] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);

  const query = (format?: 'csv' | 'jsonl') => {
    const params = new URLSearchParams({ from: filters.from, to: isoDay(Date.parse(`${filters.to}T00:00:00Z`) + DAY_MS), by: filters.by });
    for (const name of ['model', 'channel', 'group', 'account'] as const) if (filters[name].trim() !== '') params.set(name, filters[name].trim());
    if (format) params.set('format', format);
    return `/api/admin/margin?${params}`;
  };
  useEffect(() => {
    call<MarginAnswer>(query(), { bearer: token }).then(
      (loaded) => (setAnswer(loaded), setError(null)),
      (caught: Error) => setError(caught.message),
    );
    call<{ data: string[] }>('/api/admin/prices/unpriced', { bearer: token }).then(
      (loaded) => setUnpriced(loaded.data),
      () => setUnpriced([]),
    );
  }, [token, generation]);

  const download = async (format: 'csv' | 'jsonl') => {
    const response = await fetch(query(format), { headers: token ? { authorization: `Bearer ${token}` } : {}, credentials: token ? 'omit' : 'same-origin' });
    if (!response.ok) return setError(t('margin.exportFailed', { status: response.status }));
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = `margin-${filters.by}-${filters.from}-${filters.to}.${format}`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const field = (name: 'model' | 'channel' | 'group' | 'account') => (
    <label>
      {t(`margin.dimension.${name}`)}
      <input value={filters[name]} onInput={(event) => setFilters({ ...filters, [name]: (event.target as HTMLInputElement).value })} />
    </label>
  );

  return (
    <section>
      <PageHead title={t('margin.title')} onRefresh={() => setGeneration((value) => value + 1)} />
      {unpriced.length > 0 && (
        <p class="notice warn" role="status" data-unpriced-served>
          {t('margin.unpriced', { models: list(unpriced) })}
        </p>
      )}
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setGeneration((value) => value + 1);
        }}
      >
        <label>
          {t('margin.from')}
          <input type="date" value={filters.from} onInput={(event) => setFilters({ ...filters, from: (event.target as HTMLInputElement).value })} />
        </label>
        <label>
          {t('margin.to')}
          <input type="date" value={filters.to} onInput={(event) => setFilters({ ...filters, to: (event.target as HTMLInputElement).value })} />
        </label>
        <label>
          {t('margin.per')}
          <select value={filters.by} onChange={(event) => setFilters({ ...filters, by: (event.target as HTMLSelectElement).value as MarginDimension })}>
            {(['model', 'channel', 'group', 'account'] as const).map((by) => (
              <option key={by} value={by}>
                {t(`margin.dimension.${by}`)}
              </option>
            ))}
          </select>
        </label>
        {field('model')}
        {field('channel')}
        {field('group')}
        {field('account')}
        <button type="submit">{t('margin.show')}</button>
        <button type="button" onClick={() => void download('csv')}>
          {t('margin.exportCsv')}
        </button>
        <button type="button" onClick={() => void download('jsonl')}>
          {t('margin.exportJsonl')}
        </button>
      </form>
      {error && (
        <p class="notice error" role="alert">
          {t('margin.couldNotLoad', { error })}
        </p>
      )}
      {answer && (
        <div class="table-wrap">
          <table class="margin" data-margin>
            <thead>
              <tr>
                <th scope="col">{t('margin.day')}</th>
                <th scope="col">{t(`margin.dimension.${answer.by}`)}</th>
                <th scope="col">{t('margin.requests')}</th>
                <th scope="col">{t('margin.revenue')}</th>
                <th scope="col">{t('margin.cost')}</th>
                <th scope="col">{t('margin.margin')}</th>
              </tr>
            </thead>
            <tbody>
              {answer.data.map((row) => (
                <tr key={`${row.day} ${row.key}`}>
                  <td>{row.day}</td>
                  <td>{row.key ?? '—'}</td>
                  <td>{row.requests}</td>
                  <td>{usd(row.revenueUsd)}</td>
                  <td>{usd(row.costUsd)}</td>
                  <td class={row.marginMicros < 0 ? 'negative' : ''}>{usd(row.marginUsd)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr data-margin-total>
                <th scope="row" colSpan={2}>
                  {t('margin.total')}
                </th>
                <td>{answer.totals.requests}</td>
                <td>{usd(answer.totals.revenueUsd)}</td>
                <td>{usd(answer.totals.costUsd)}</td>
                <td>{usd(answer.totals.marginUsd)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
