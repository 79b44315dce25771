import { AsyncView } from '../components/async-view.tsx';
import { call } from '../lib/api.ts';
import { count, dateTime, ms, usd } from '../lib/format.ts';
import type { ApiKeyRecord, ListAnswer, LogEntry, UsageSummary } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';

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
    <AsyncView resource={data} what={t('keyUsage.what')}>
      {([summary, logs]) => (
        <>
          <dl class="facts">
            <dt>{t('keyUsage.requests7')}</dt>
            <dd>{count(summary.totals.requests)}</dd>
            <dt>{t('keyUsage.errors')}</dt>
            <dd>{count(summary.totals.errors)}</dd>
            <dt>{t('usage.tokensInOut')}</dt>
            <dd>
              {count(summary.totals.inputTokens)} / {count(summary.totals.outputTokens)}
            </dd>
            <dt>{t('keyUsage.cost7')}</dt>
            <dd>{usd(summary.totals.cost)}</dd>
            <dt>{t('keyUsage.spentTotal')}</dt>
            <dd>{usd(props.apiKey.spent)}</dd>
          </dl>
          <h3>{t('keyUsage.latest')}</h3>
          {logs.data.length === 0 ? (
            <p class="muted">{t('keyUsage.none')}</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('usage.time')}</th>
                    <th scope="col">{t('usage.model')}</th>
                    <th scope="col" class="num">{t('usage.status')}</th>
                    <th scope="col" class="num">{t('usage.latency')}</th>
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
