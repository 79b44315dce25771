import { useEffect, useState } from 'preact/hooks';
import { Drawer } from '../components/drawer.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { count, DASH, dateTime, ms, usd, visibleName } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { attemptChain, logsCsv } from '../lib/logs-csv.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { LogEntry, PagedAnswer } from '../lib/types.ts';
import { LogDetail } from './log-detail.tsx';
import { explainErrorCode } from '../i18n/api-errors.ts';
import { t } from '../i18n/i18n.ts';

interface Filters {
  key: string;
  model: string;
  channel: string;
  group: string;
  status: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { key: '', model: '', channel: '', group: '', status: '', from: '', to: '' };
const PAGE = 200;
/** The most rows one CSV export gathers (page by page). */
const EXPORT_LIMIT = 20_000;

export function logCost(entry: LogEntry): number {
  return entry.costMicros / 1_000_000;
}

interface Loaded {
  rows: LogEntry[];
  next: string | null;
  loading: boolean;
  error: string | null;
}

export function LogsPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [open, setOpen] = useState<LogEntry | null>(null);
  const [loaded, setLoaded] = useState<Loaded>({ rows: [], next: null, loading: true, error: null });
  const [exporting, setExporting] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);

  const fetchPage = (cursor: string | null, limit = PAGE) =>
    call<PagedAnswer<LogEntry>>(`/api/admin/logs?${queryOf(filters, limit, cursor)}`, { bearer: token });

  useEffect(() => {
    let current = true;
    setLoaded((state) => ({ ...state, loading: true, error: null }));
    fetchPage(null).then(
      (answer) => current && setLoaded({ rows: answer.data, next: answer.next ?? null, loading: false, error: null }),
      (error: Error) => current && setLoaded({ rows: [], next: null, loading: false, error: error.message }),
    );
    return () => {
      current = false;
    };
  }, [token, filters, generation]);

  const loadOlder = async () => {
    if (!loaded.next) return;
    setLoaded((state) => ({ ...state, loading: true }));
    try {
      const answer = await fetchPage(loaded.next);
      setLoaded((state) => ({ rows: [...state.rows, ...answer.data], next: answer.next ?? null, loading: false, error: null }));
    } catch (error) {
      setLoaded((state) => ({ ...state, loading: false, error: (error as Error).message }));
    }
  };

  const exportCsv = async () => {
    setExporting(t('logs.gathering'));
    try {
      const rows: LogEntry[] = [];
      let cursor: string | null = null;
      do {
        const answer: PagedAnswer<LogEntry> = await fetchPage(cursor, 1000);
        rows.push(...answer.data);
        cursor = answer.next ?? null;
        setExporting(t('logs.gatheringCount', { count: rows.length }));
      } while (cursor && rows.length < EXPORT_LIMIT);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([logsCsv(rows)], { type: 'text/csv' }));
      link.download = `switchyard-logs-${new Date().toISOString().slice(0, 19).replaceAll(':', '')}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      setExporting(cursor ? t('logs.exportedFirst', { count: rows.length, limit: EXPORT_LIMIT }) : t('logs.exported', { count: rows.length }));
    } catch (error) {
      setExporting(t('logs.exportFailed', { message: (error as Error).message }));
    }
  };

  const field = (name: keyof Filters, label: string, type = 'text') => (
    <label>
      {label}
      <input
        name={name}
        type={type}
        value={draft[name]}
        onInput={(event) => setDraft((current) => ({ ...current, [name]: inputValue(event) }))}
      />
    </label>
  );

  return (
    <section>
      <PageHead title={t('logs.title')} onRefresh={() => setGeneration((value) => value + 1)} />
      <form
        class="filters"
        aria-label={t('logs.filter')}
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
        }}
      >
        {field('key', t('logs.fKey'))}
        {field('model', t('logs.fModel'))}
        {field('channel', t('logs.fChannel'))}
        {field('group', t('logs.fGroup'))}
        {field('status', t('logs.fStatus'), 'number')}
        {field('from', t('logs.fFrom'), 'datetime-local')}
        {field('to', t('logs.fTo'), 'datetime-local')}
        <div class="actions">
          <button type="submit" class="primary">
            {t('logs.apply')}
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
            }}
          >
            {t('logs.clear')}
          </button>
          <button type="button" onClick={() => void exportCsv()} disabled={exporting?.startsWith(t('logs.gathering')) ?? false}>
            {t('logs.export')}
          </button>
        </div>
      </form>
      {exporting && (
        <p class="notice" role="status" data-export-status>
          {exporting}
        </p>
      )}
      {loaded.error && (
        <p class="notice error" role="alert">
          {t('logs.couldNotLoad', { error: loaded.error })}
        </p>
      )}
      {!loaded.loading && !loaded.error && loaded.rows.length === 0 ? (
        <p class="notice">{t('logs.none')}</p>
      ) : (
        <div class="table-wrap">
          <table class="logs">
            <thead>
              <tr>
                <th scope="col">{t('logs.time')}</th>
                <th scope="col">{t('logs.key')}</th>
                <th scope="col">{t('logs.model')}</th>
                <th scope="col">{t('logs.channel')}</th>
                <th scope="col">{t('logs.tries')}</th>
                <th scope="col" class="num">{t('logs.status')}</th>
                <th scope="col">{t('logs.code')}</th>
                <th scope="col" class="num">{t('logs.tokens')}</th>
                <th scope="col" class="num">{t('logs.cost')}</th>
                <th scope="col" class="num">{t('logs.latency')}</th>
                <th scope="col" class="num">{t('logs.ttft')}</th>
                <th scope="col">{t('logs.detail')}</th>
              </tr>
            </thead>
            <tbody>
              {loaded.rows.map((entry) => (
                <tr key={entry.requestId} class={entry.status >= 400 ? 'row-error' : ''} data-request={entry.requestId}>
                  <td class="small-text">{dateTime(entry.time)}</td>
                  <td>{entry.keyName ?? <span class="muted">{t('logs.noKey')}</span>}</td>
                  <td>
                    <code>{visibleName(entry.model)}</code>
                  </td>
                  <td>{entry.channelName ?? DASH}</td>
                  <td class="small-text" data-tries>
                    <Tries entry={entry} />
                  </td>
                  <td class="num">{entry.status}</td>
                  <td class="small-text" title={explainErrorCode(entry.errorCode) ?? undefined}>
                    {entry.errorCode ?? DASH}
                  </td>
                  <td class="num">
                    {count(entry.inputTokens)} / {count(entry.outputTokens)}
                  </td>
                  <td class="num">{usd(logCost(entry))}</td>
                  <td class="num">{ms(entry.latencyMs)}</td>
                  <td class="num">{ms(entry.ttftMs)}</td>
                  <td>
                    <button type="button" class="small" onClick={() => setOpen(entry)} aria-label={t('logs.detailsOf', { id: entry.requestId })}>
                      {t('logs.details')}
                      {entry.warnings.length > 0 ? t('logs.warnings', { count: entry.warnings.length }) : ''}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="actions pager">
        <span class="muted small-text" data-row-count>
          {loaded.loading ? t('logs.loading') : `${t('logs.shown', { count: loaded.rows.length })}${loaded.next ? t('logs.olderExist') : ''}`}
        </span>
        {loaded.next && (
          <button type="button" onClick={() => void loadOlder()} disabled={loaded.loading}>
            {t('logs.older')}
          </button>
        )}
      </div>
      {open && (
        <Drawer title={t('logs.request', { id: open.requestId })} onClose={() => setOpen(null)}>
          <LogDetail entry={open} />
        </Drawer>
      )}
    </section>
  );
}

/** The retry chain at a glance: failed tries in red, with the channel that failed. */
function Tries(props: { entry: LogEntry }) {
  const { attempts } = props.entry;
  if (attempts.length === 0) return <>{DASH}</>;
  const failed = attempts.filter((attempt) => attempt.errorCode !== null);
  if (failed.length === 0) return <>{attempts.length}</>;
  return (
    <span title={attemptChain(props.entry)}>
      {attempts.length}:{' '}
      {attempts.map((attempt, index) => (
        <span key={index} class={attempt.errorCode === null ? '' : 'failed-try'}>
          {index > 0 ? ' → ' : ''}
          {attempt.channelName} {attempt.errorCode ?? attempt.status ?? t('logs.ok')}
        </span>
      ))}
    </span>
  );
}

function queryOf(filters: Filters, limit: number, cursor: string | null): string {
  const query = new URLSearchParams({ limit: String(limit) });
  for (const name of ['key', 'model', 'channel', 'group', 'status'] as const) if (filters[name].trim()) query.set(name, filters[name].trim());
  if (filters.from) query.set('from', new Date(filters.from).toISOString());
  if (filters.to) query.set('to', new Date(filters.to).toISOString());
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}
