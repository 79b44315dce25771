import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { Drawer } from '../components/drawer.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { count, DASH, dateTime, ms, usd, visibleName } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { ListAnswer, LogEntry } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { LogDetail } from './log-detail.tsx';

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

export function logCost(entry: LogEntry): number | undefined {
  return entry.cost ?? (entry.costMicros === undefined ? undefined : entry.costMicros / 1_000_000);
}

export function LogsPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [open, setOpen] = useState<LogEntry | null>(null);
  const logs = useResource(() => call<ListAnswer<LogEntry>>(`/api/admin/logs?${queryOf(filters)}`, { bearer: token }), [token, filters]);

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
      <PageHead title="Logs" onRefresh={logs.reload} />
      <form
        class="filters"
        aria-label="Filter the logs"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
        }}
      >
        {field('key', 'Key id')}
        {field('model', 'Model')}
        {field('channel', 'Channel id')}
        {field('group', 'Group')}
        {field('status', 'Status', 'number')}
        {field('from', 'From', 'datetime-local')}
        {field('to', 'To', 'datetime-local')}
        <div class="actions">
          <button type="submit" class="primary">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <AsyncView resource={logs} what="logs">
        {(answer) =>
          answer.data.length === 0 ? (
            <p class="notice">No requests match. Requests appear here a moment after they finish.</p>
          ) : (
            <div class="table-wrap">
              <table class="logs">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Key</th>
                    <th scope="col">Model</th>
                    <th scope="col">Channel</th>
                    <th scope="col" class="num">Status</th>
                    <th scope="col">Code</th>
                    <th scope="col" class="num">Tokens in / out</th>
                    <th scope="col" class="num">Cost</th>
                    <th scope="col" class="num">Latency</th>
                    <th scope="col" class="num">TTFT</th>
                    <th scope="col">Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.data.map((entry) => (
                    <tr key={entry.requestId} class={entry.status >= 400 ? 'row-error' : ''} data-request={entry.requestId}>
                      <td class="small-text">{dateTime(entry.time)}</td>
                      <td>{entry.keyName ?? DASH}</td>
                      <td>
                        <code>{visibleName(entry.model)}</code>
                      </td>
                      <td>{entry.channelName ?? DASH}</td>
                      <td class="num">{entry.status}</td>
                      <td class="small-text">{entry.errorCode ?? DASH}</td>
                      <td class="num">
                        {count(entry.inputTokens)} / {count(entry.outputTokens)}
                      </td>
                      <td class="num">{usd(logCost(entry))}</td>
                      <td class="num">{ms(entry.latencyMs)}</td>
                      <td class="num">{ms(entry.ttftMs)}</td>
                      <td>
                        <button type="button" class="small" onClick={() => setOpen(entry)} aria-label={`Details of request ${entry.requestId}`}>
                          Details
                          {entry.warnings.length > 0 ? ` (${entry.warnings.length} warning${entry.warnings.length > 1 ? 's' : ''})` : ''}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </AsyncView>
      {open && (
        <Drawer title={`Request ${open.requestId}`} onClose={() => setOpen(null)}>
          <LogDetail entry={open} />
        </Drawer>
      )}
    </section>
  );
}

function queryOf(filters: Filters): string {
  const query = new URLSearchParams({ limit: '200' });
  for (const name of ['key', 'model', 'channel', 'group', 'status'] as const) if (filters[name].trim()) query.set(name, filters[name].trim());
  if (filters.from) query.set('from', new Date(filters.from).toISOString());
  if (filters.to) query.set('to', new Date(filters.to).toISOString());
  return query.toString();
}
