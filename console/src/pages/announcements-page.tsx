import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import type { Announcement } from '../lib/notify-types.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

/** Notices for the portal home and for key holders (`GET /api/announcements`): post, list, remove. */
export function AnnouncementsPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const list = useResource(async () => (await call<{ data: Announcement[] }>('/api/admin/announcements', { bearer })).data, [bearer]);
  const submit = useSubmit();
  const [form, setForm] = useState({ title: '', body: '', audience: 'all', endsAt: '' });
  const set = (name: keyof typeof form) => (event: Event) => setForm({ ...form, [name]: (event.target as HTMLInputElement).value });
  const post = () =>
    submit.run(async () => {
      const endsAt = form.endsAt === '' ? {} : { endsAt: new Date(form.endsAt).toISOString() };
      await call('/api/admin/announcements', { method: 'POST', bearer, body: { title: form.title, body: form.body, audience: form.audience, ...endsAt } });
      setForm({ title: '', body: '', audience: 'all', endsAt: '' });
      list.reload();
    });
  const remove = (id: string) => submit.run(async () => void (await call(`/api/admin/announcements/${id}`, { method: 'DELETE', bearer }), list.reload()));
  return (
    <section>
      <PageHead title={t('announcements.title')} onRefresh={list.reload} />
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault();
          void post();
        }}
      >
        <label>
          {t('announcements.noticeTitle')} <input value={form.title} onInput={set('title')} required maxLength={200} />
        </label>
        <label>
          {t('announcements.message')} <textarea value={form.body} onInput={set('body')} required rows={4} />
        </label>
        <label>
          {t('announcements.audience')} <input value={form.audience} onInput={set('audience')} placeholder={t('announcements.audienceHint')} />
        </label>
        <label>
          {t('announcements.ends')} <input type="datetime-local" value={form.endsAt} onInput={set('endsAt')} />
        </label>
        {submit.error && (
          <p class="notice error" role="alert">
            {submit.error}
          </p>
        )}
        <button type="submit" class="primary" disabled={submit.busy}>
          {t('announcements.post')}
        </button>
      </form>
      <AsyncView resource={list} what={t('announcements.what')}>
        {(rows) =>
          rows.length === 0 ? (
            <p class="muted">{t('announcements.none')}</p>
          ) : (
            <ul class="announcements">
              {rows.map((row) => (
                <li key={row.id} data-announcement={row.title}>
                  <strong>{row.title}</strong> <span class="small-text muted">({row.audience}, {dateTime(row.createdAt)}{row.endsAt ? t('announcements.until', { time: dateTime(row.endsAt) }) : ''})</span>
                  <p>{row.body}</p>
                  <button type="button" class="small" onClick={() => void remove(row.id)}>
                    {t('announcements.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </AsyncView>
    </section>
  );
}
