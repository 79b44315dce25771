import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

interface AdminRow {
  id: string;
  name: string;
  email: string;
  role: string;
  enabled: boolean;
}

const ROLES = ['owner', 'admin', 'finance', 'support', 'auditor'];

/** The owner's page of the people who run the console (issue 29): who they are, and a new one. */
export function AdminsPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const admins = useResource(() => call<{ data: AdminRow[] }>('/api/admin/admins', { bearer }).then((answer) => answer.data), [bearer]);
  const [form, setForm] = useState({ name: '', email: '', role: 'support', password: '' });
  const submission = useSubmit();
  const [done, setDone] = useState<string | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setDone(null);
    await submission.run(async () => {
      const created = await call<AdminRow>('/api/admin/admins', { method: 'POST', bearer, body: form });
      setForm({ name: '', email: '', role: 'support', password: '' });
      setDone(t('admins.created', { name: created.name, role: created.role }));
      admins.reload();
    });
  };
  const field = (name: keyof typeof form) => (event: Event) => setForm({ ...form, [name]: inputValue(event) });

  return (
    <section>
      <PageHead title={t('admins.title')} onRefresh={admins.reload} />
      {admins.error && <ErrorNotice>{admins.error.message}</ErrorNotice>}
      <table>
        <thead>
          <tr>
            <th>{t('admins.name')}</th>
            <th>{t('admins.email')}</th>
            <th>{t('admins.role')}</th>
            <th>{t('admins.enabled')}</th>
          </tr>
        </thead>
        <tbody>
          {(admins.data ?? []).map((admin) => (
            <tr key={admin.id}>
              <td>{admin.name}</td>
              <td>{admin.email}</td>
              <td>{admin.role}</td>
              <td>{admin.enabled ? t('admins.yes') : t('admins.no')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="card" onSubmit={create}>
        <h2>{t('admins.new')}</h2>
        <label>
          {t('admins.name')}
          <input name="name" value={form.name} onInput={field('name')} required />
        </label>
        <label>
          {t('admins.email')}
          <input name="email" type="email" value={form.email} onInput={field('email')} required />
        </label>
        <label>
          {t('admins.role')}
          <select name="role" value={form.role} onChange={field('role')}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('admins.password')}
          <input name="password" type="password" autoComplete="new-password" minLength={8} value={form.password} onInput={field('password')} required />
        </label>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        {done && <p role="status">{done}</p>}
        <button type="submit" class="primary" disabled={submission.busy}>
          {t('admins.create')}
        </button>
      </form>
    </section>
  );
}
