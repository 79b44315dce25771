import { useEffect, useState } from 'preact/hooks';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { DASH, dateTime } from '../lib/format.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { AuditEntry, PagedAnswer } from '../lib/types.ts';
import { t } from '../i18n/i18n.ts';

/** Every change made through the admin API (console, CLI or curl): who, what, before → after. */
export function AuditPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const [rows, setRows] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);

  const load = async (cursor: string | null) => {
    setLoading(true);
    try {
      const answer = await call<PagedAnswer<AuditEntry>>(`/api/admin/audit?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { bearer: token });
      setRows((current) => (cursor ? [...current, ...answer.data] : answer.data));
      setNext(answer.next ?? null);
      setError(null);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void load(null), [token, generation]);

  return (
    <section>
      <PageHead title={t('audit.title')} onRefresh={() => setGeneration((value) => value + 1)} />
      <p class="muted small-text">{t('audit.intro')}</p>
      {error && (
        <p class="notice error" role="alert">
          {t('audit.couldNotLoad', { error })}
        </p>
      )}
      {!loading && !error && rows.length === 0 ? (
        <p class="notice">{t('audit.none')}</p>
      ) : (
        <div class="table-wrap">
          <table class="audit">
            <thead>
              <tr>
                <th scope="col">{t('audit.time')}</th>
                <th scope="col">{t('audit.change')}</th>
                <th scope="col">{t('audit.target')}</th>
                <th scope="col">{t('audit.who')}</th>
                <th scope="col">{t('audit.beforeAfter')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id} data-audit={entry.action}>
                  <td class="small-text">{dateTime(entry.time)}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>{entry.targetName ?? entry.targetId}</td>
                  <td class="small-text">
                    {entry.actor}
                    {entry.clientIp ? t('audit.from', { ip: entry.clientIp }) : ''}
                    {entry.userAgent ? <div class="muted">{shortAgent(entry.userAgent)}</div> : null}
                  </td>
                  <td class="small-text">
                    <Changes before={entry.before} after={entry.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="actions pager">
        <span class="muted small-text">{loading ? t('audit.loading') : t('audit.shown', { count: rows.length })}</span>
        {next && (
          <button type="button" onClick={() => void load(next)} disabled={loading}>
            {t('audit.older')}
          </button>
        )}
      </div>
    </section>
  );
}

const IGNORED = new Set(['updatedAt', 'createdAt', 'health', 'spent']);

/** The fields that changed, one per line; a creation or deletion lists the record's main fields. */
function Changes(props: { before: unknown; after: unknown }) {
  const before = asRecord(props.before);
  const after = asRecord(props.after);
  if (!before && !after) return <>{DASH}</>;
  if (!before || !after) {
    const record = after ?? before ?? {};
    const verb = after ? t('audit.created') : t('audit.deleted');
    return (
      <span>
        {verb}: {Object.entries(record).filter(([name]) => !IGNORED.has(name) && name !== 'id').slice(0, 6).map(([name, value]) => `${name} ${show(value)}`).join(', ')}
      </span>
    );
  }
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (name) => !IGNORED.has(name) && JSON.stringify(before[name]) !== JSON.stringify(after[name]),
  );
  if (names.length === 0) return <span class="muted">{t('audit.noVisible')}</span>;
  return (
    <ul class="changes">
      {names.map((name) => (
        <li key={name}>
          <strong>{name}</strong>: {show(before[name])} → {show(after[name])}
        </li>
      ))}
    </ul>
  );
}

/** Audit records are JSON objects; anything else (null for a creation or deletion) has no fields. */
function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return DASH;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function shortAgent(agent: string): string {
  if (/curl\//.test(agent)) return 'curl';
  if (/node/.test(agent) && !/Mozilla/.test(agent)) return 'CLI / script';
  if (/Mozilla/.test(agent)) return 'console (browser)';
  return agent.slice(0, 40);
}
