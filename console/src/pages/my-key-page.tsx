import { AsyncView } from '../components/async-view.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { PageHead } from '../components/page-head.tsx';
import { count, DASH, dateTime, usd, visibleName } from '../lib/format.ts';
import { loadKeyHolderView, type KeyHolderView } from '../lib/key-holder.ts';
import { followLink } from '../lib/router.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { explainErrorCode } from '../i18n/api-errors.ts';
import { t } from '../i18n/i18n.ts';

/** A key holder's home: group, models, balance and limits, usage. Read-only. */
export function MyKeyPage(props: { session: Session }) {
  const key = props.session.role === 'key' ? props.session.key : '';
  const view = useResource(() => loadKeyHolderView(key), [key]);
  return (
    <section>
      <PageHead title={t('myKey.title')} onRefresh={view.reload} />
      <AsyncView resource={view} what={t('myKey.what')}>
        {(data) => <KeyView view={data} />}
      </AsyncView>
    </section>
  );
}

function KeyView({ view }: { view: KeyHolderView }) {
  return (
    <>
      {view.problem && <ErrorNotice>{t('myKey.refused', { problem: view.problem })}</ErrorNotice>}
      {view.source === 'models' && (
        <p class="notice" role="note">
          {t('myKey.noMe')}
        </p>
      )}
      <div class="two-columns">
        <div class="card">
          <h2>{t('myKey.key')}</h2>
          <dl class="facts">
            <dt>{t('myKey.name')}</dt>
            <dd>{view.name ?? DASH}</dd>
            <dt>{t('myKey.group')}</dt>
            <dd data-group>{view.group ?? DASH}</dd>
            <dt>{t('myKey.balance')}</dt>
            <dd>{view.balance === undefined ? DASH : usd(view.balance, t('myKey.unlimited'))}</dd>
            <dt>{t('myKey.spent')}</dt>
            <dd>{view.spent === undefined ? DASH : usd(view.spent)}</dd>
            <dt>{t('myKey.expires')}</dt>
            <dd>{view.expiresAt === undefined ? DASH : view.expiresAt === null ? t('myKey.never') : dateTime(view.expiresAt)}</dd>
            <dt>{t('myKey.limits')}</dt>
            <dd>{view.limits === undefined ? DASH : view.limits.length === 0 ? t('myKey.none') : view.limits.join('; ')}</dd>
          </dl>
        </div>
        <div class="card">
          <h2>{t('myKey.models')}</h2>
          {view.models.length === 0 ? (
            <p class="muted">{t('myKey.noModels')}</p>
          ) : (
            <ul class="model-list" data-models>
              {view.models.map((model) => (
                <li key={model}>
                  <code>{model}</code>
                </li>
              ))}
            </ul>
          )}
          <p>
            <a href="/console/connect" onClick={(event) => followLink(event, '/connect')}>
              {t('myKey.setUp')}
            </a>{' '}
            ·{' '}
            <a href="/console/check" onClick={(event) => followLink(event, '/check')}>
              {t('myKey.runCheck')}
            </a>
          </p>
        </div>
      </div>
      {view.usage !== undefined && view.usage !== null && (
        <div class="card">
          <h2>{t('myKey.recentUsage')}</h2>
          <UsageBlock usage={view.usage} />
        </div>
      )}
    </>
  );
}

/** /api/me's usage shape is not fixed yet: show a table for a list of rows, else the fields. */
function UsageBlock({ usage }: { usage: unknown }) {
  const rows = Array.isArray(usage) ? usage : Array.isArray((usage as { data?: unknown }).data) ? (usage as { data: unknown[] }).data : null;
  if (rows && rows.length > 0 && isUsageRow(rows[0])) {
    return (
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('usage.time')}</th>
              <th scope="col">{t('usage.model')}</th>
              <th scope="col" class="num">{t('usage.status')}</th>
              <th scope="col">{t('myKey.code')}</th>
              <th scope="col" class="num">{t('usage.tokensInOut')}</th>
              <th scope="col" class="num">{t('usage.cost')}</th>
            </tr>
          </thead>
          <tbody>
            {(rows as UsageRow[]).map((row, index) => (
              <tr key={row.requestId ?? index}>
                <td class="small-text">{dateTime(row.time)}</td>
                <td>
                  <code>{visibleName(row.model)}</code>
                </td>
                <td class="num">{row.status}</td>
                <td class="small-text" title={explainErrorCode(row.errorCode) ?? undefined}>
                  {row.errorCode ?? DASH}
                </td>
                <td class="num">
                  {count(row.inputTokens)} / {count(row.outputTokens)}
                </td>
                <td class="num">{usd(row.cost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  if (rows && rows.length > 0 && typeof rows[0] === 'object') {
    const columns = Object.keys(rows[0] as object).filter((name) => typeof (rows[0] as Record<string, unknown>)[name] !== 'object');
    return (
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 50).map((row, index) => (
              <tr key={index}>
                {columns.map((column) => (
                  <td key={column}>{String((row as Record<string, unknown>)[column] ?? DASH)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  if (typeof usage === 'object' && usage !== null) {
    return (
      <dl class="facts">
        {Object.entries(usage as Record<string, unknown>)
          .filter(([, value]) => typeof value !== 'object')
          .map(([name, value]) => [<dt key={`${name}-t`}>{name}</dt>, <dd key={`${name}-d`}>{String(value)}</dd>])}
      </dl>
    );
  }
  return <p class="muted">{t('myKey.noUsage')}</p>;
}

interface UsageRow {
  requestId?: string;
  time: string;
  model: string | null;
  status: number;
  errorCode?: string | null;
  inputTokens?: number;
  outputTokens?: number;
  cost?: number;
}

function isUsageRow(value: unknown): value is UsageRow {
  return typeof value === 'object' && value !== null && typeof (value as UsageRow).time === 'string' && typeof (value as UsageRow).status === 'number';
}
