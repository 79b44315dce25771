import { useMemo, useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { PageHead } from '../components/page-head.tsx';
import { t } from '../i18n/i18n.ts';
import { dateTime } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { type PasskeyRow, passkeyApi, passkeysSupported } from '../lib/passkeys.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { signInSecurityApi } from '../lib/sign-in-security.ts';
import { passkeyError } from './passkey-sign-in.tsx';
import { SessionsCard } from './sessions-card.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

/**
 * The signed-in person's own sign-in security (issue 29), for account holders and named admins
 * alike: their passkeys, added here with this browser's authenticator, renamed and removed; their
 * sessions; and their TOTP two-factor sign-in.
 */
export function SecurityPage(props: { session: Session }) {
  const api = useMemo(() => passkeyApi(props.session), [props.session]);
  const security = useMemo(() => signInSecurityApi(props.session), [props.session]);
  const passkeys = useResource(() => api.list(), [api]);
  const [name, setName] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const submission = useSubmit();

  const add = async (event: Event) => {
    event.preventDefault();
    setDone(null);
    await submission.run(async () => {
      const saved = await api.register(name);
      setName('');
      setDone(t('security.added', { name: saved.name }));
      passkeys.reload();
    }, passkeyError);
  };
  const act = (action: () => Promise<string>) => {
    setDone(null);
    void submission.run(async () => {
      setDone(await action());
      passkeys.reload();
    });
  };

  return (
    <section>
      <PageHead title={t('security.title')} onRefresh={passkeys.reload} />
      <h2>{t('security.passkeys')}</h2>
      <p class="muted">{t('security.intro')}</p>
      {passkeys.error && <ErrorNotice>{passkeys.error.message}</ErrorNotice>}
      {passkeys.data?.length === 0 ? <p>{t('security.none')}</p> : <PasskeyTable rows={passkeys.data ?? []} api={api} act={act} />}
      {passkeysSupported() ? (
        <form class="card" onSubmit={add}>
          <label>
            {t('security.newName')}
            <input name="passkey-name" value={name} maxLength={100} onInput={(event) => setName(inputValue(event))} />
          </label>
          <button type="submit" class="primary" disabled={submission.busy}>
            {submission.busy ? t('security.adding') : t('security.add')}
          </button>
        </form>
      ) : (
        <p class="notice">{t('security.unsupported')}</p>
      )}
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
      <TwoFactorCard api={security} />
      <SessionsCard api={security} />
    </section>
  );
}

function PasskeyTable(props: { rows: PasskeyRow[]; api: ReturnType<typeof passkeyApi>; act: (action: () => Promise<string>) => void }) {
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const save = (row: PasskeyRow) => {
    if (!editing) return;
    const next = editing.name.trim();
    setEditing(null);
    if (next !== '' && next !== row.name) props.act(async () => t('security.renamed', { name: (await props.api.rename(row.id, next)).name }));
  };
  return (
    <table class="passkeys">
      <thead>
        <tr>
          <th>{t('security.name')}</th>
          <th>{t('security.created')}</th>
          <th>{t('security.lastUsed')}</th>
          <th>{t('security.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.id}>
            <td>
              {editing?.id === row.id ? (
                <input aria-label={t('security.name')} value={editing.name} maxLength={100} onInput={(event) => setEditing({ id: row.id, name: inputValue(event) })} />
              ) : (
                <>
                  {row.name} {row.backedUp && <span class="muted">({t('security.synced')})</span>}
                </>
              )}
            </td>
            <td>{dateTime(row.createdAt)}</td>
            <td>{row.lastUsedAt ? dateTime(row.lastUsedAt) : t('security.never')}</td>
            <td>
              {editing?.id === row.id ? (
                <>
                  <button type="button" class="small" onClick={() => save(row)}>
                    {t('security.save')}
                  </button>{' '}
                  <button type="button" class="small" onClick={() => setEditing(null)}>
                    {t('security.cancel')}
                  </button>
                </>
              ) : (
                <>
                  <button type="button" class="small" onClick={() => setEditing({ id: row.id, name: row.name })}>
                    {t('security.rename')}
                  </button>{' '}
                  <button
                    type="button"
                    class="small danger"
                    onClick={() => props.act(async () => (await props.api.remove(row.id), t('security.removed', { name: row.name })))}
                  >
                    {t('security.remove')}
                  </button>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
