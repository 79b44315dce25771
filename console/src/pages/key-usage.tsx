import { AsyncView } from '../components/async-view.tsx';
import { call } from '../lib/api.ts';
import { count, dateTime, ms, usd } from '../lib/format.ts';
import type { ApiKeyRecord, ListAnswer, LogEntry, UsageSummary } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';

/** One key's last 7 days and its latest requests. */
export function KeyUsage(props: { token: string; apiKey: ApiKeyRecord }) {
  const id = encodeURIComponent(props.apiKey.id);
  const data = useResource(
    () =>
      Promise.all([
        call<UsageSummary>(`/api/admin/insight/summary?range=7d&key=${id}`, { bearer: props.token }),
        call<ListAnswer<LogEntry>>(`/api/admin/logs?key=${id}&limit=20`, { bearer: props.token }),
      ]),
    [id],
  );
  return (
    <AsyncView resource={data} what="this key's usage">
      {([summary, logs]) => (
        <>
          <dl class="facts">
            <dt>Requests (7 days)</dt>
            <dd>{count(summary.totals.requests)}</dd>
            <dt>Errors</dt>
            <dd>{count(summary.totals.errors)}</dd>
            <dt>Tokens in / out</dt>
            <dd>
              {count(summary.totals.inputTokens)} / {count(summary.totals.outputTokens)}
            </dd>
            <dt>Cost (7 days)</dt>
            <dd>{usd(summary.totals.cost)}</dd>
            <dt>Spent in total</dt>
            <dd>{usd(props.apiKey.spent)}</dd>
          </dl>
          <h3>Latest requests</h3>
          {logs.data.length === 0 ? (
            <p class="muted">No requests yet.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Model</th>
                    <th scope="col" class="num">Status</th>
                    <th scope="col" class="num">Latency</th>
                  </tr>
                </thead>
                <tbody>
                  {logs.data.map((entry) => (
                    <tr key={entry.requestId}>
                      <td class="small-text">{dateTime(entry.time)}</td>
                      <td>{entry.model ?? '—'}</td>
                      <td class="num">{entry.status}</td>
                      <td class="num">{ms(entry.latencyMs)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </AsyncView>
  );
}
