import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { t } from '../i18n/i18n.ts';
import { dateTime } from '../lib/format.ts';
import type { SessionRow, SignInSecurityApi } from '../lib/sign-in-security.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';

/**
 * Where the signed-in person is signed in (issue 29): device, address, when opened and last seen,
 * this browser marked; ending one, or every one but this (this browser stays signed in).
 */
export function SessionsCard(props: { api: SignInSecurityApi }) {
  const sessions = useResource(() => props.api.sessions(), [props.api]);
  const submission = useSubmit();
  const [done, setDone] = useState<string | null>(null);
  const rows = sessions.data ?? [];
  const others = rows.filter((row) => !row.current);

  const revoke = (targets: SessionRow[], message: string) => {
    setDone(null);
    void submission.run(async () => {
      for (const row of targets) await props.api.revoke(row.id);
      setDone(message);
      sessions.reload();
    });
  };

  return (
    <div class="card">
      <h2>{t('security.sessions')}</h2>
      <p class="muted">{t('security.sessionsIntro')}</p>
      {sessions.error && <ErrorNotice>{sessions.error.message}</ErrorNotice>}
      <table class="sessions">
        <thead>
          <tr>
            <th>{t('security.device')}</th>
            <th>{t('security.address')}</th>
            <th>{t('security.signedIn')}</th>
            <th>{t('security.lastSeen')}</th>
            <th>{t('security.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>
                {row.device ?? t('security.unknownDevice')} {row.current && <strong>({t('security.thisDevice')})</strong>}
              </td>
              <td>{row.address ?? '—'}</td>
              <td>{dateTime(row.createdAt)}</td>
              <td>{dateTime(row.lastSeenAt)}</td>
              <td>
                {!row.current && (
                  <button type="button" class="small danger" disabled={submission.busy} onClick={() => revoke([row], t('security.sessionRevoked'))}>
                    {t('security.revoke')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {others.length > 0 && (
        <button type="button" class="danger" disabled={submission.busy} onClick={() => revoke(others, t('security.othersRevoked', { count: others.length }))}>
          {t('security.signOutOthers')}
        </button>
      )}
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </div>
  );
}
