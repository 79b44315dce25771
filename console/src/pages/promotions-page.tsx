import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { count, dateTime, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

/** A promotion code as the admin API lists it: a fixed value is micro-USD. */
interface Promotion {
  code: string;
  kind: 'percent' | 'fixed';
  value: number;
  usageLimit: number | null;
  usedCount: number;
  expiresAt: number | null;
}

const EMPTY = { code: '', kind: 'percent', value: '', usageLimit: '', expiresAt: '' };

/** Promotion codes: create (percent or fixed, usage limit, expiry), see their use, delete. */
export function PromotionsPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const data = useResource(async () => (await call<{ data: Promotion[] }>('/api/admin/promotion-codes', { bearer })).data, [bearer]);
  const [form, setForm] = useState(EMPTY);
  const submission = useSubmit();
  const action = useSubmit();
  const set = (name: keyof typeof EMPTY) => (event: Event) => setForm({ ...form, [name]: inputValue(event) });
  const create = (event: Event) => {
    event.preventDefault();
    return submission.run(async () => {
      const body = {
        code: form.code.trim(),
        kind: form.kind,
        value: Number(form.value),
        ...(form.usageLimit.trim() ? { usageLimit: Number(form.usageLimit) } : {}),
        ...(form.expiresAt ? { expiresAt: new Date(form.expiresAt).toISOString() } : {}),
      };
      await call('/api/admin/promotion-codes', { method: 'POST', bearer, body });
      setForm(EMPTY);
      data.reload();
    });
  };
  const remove = (code: string) =>
    window.confirm(t('promotions.confirmDelete', { code })) &&
    action.run(async () => {
      await call(`/api/admin/promotion-codes/${encodeURIComponent(code)}`, { method: 'DELETE', bearer });
      data.reload();
    });
  return (
    <section>
      <PageHead title={t('promotions.title')} onRefresh={data.reload} />
      <form class="card form" onSubmit={create} style={{ maxWidth: '36rem' }} data-promotion-form>
        <h2>{t('promotions.create')}</h2>
        <label>
          {t('promotions.code')}
          <input name="code" value={form.code} autoComplete="off" onInput={set('code')} />
        </label>
        <label>
          {t('promotions.kind')}
          <select name="kind" value={form.kind} onChange={set('kind')}>
            <option value="percent">{t('promotions.percent')}</option>
            <option value="fixed">{t('promotions.fixed')}</option>
          </select>
        </label>
        <label>
          {t('promotions.value')}
          <input name="value" type="number" min="0" step="0.01" value={form.value} onInput={set('value')} />
        </label>
        <label>
          {t('promotions.usageLimit')}
          <input name="usageLimit" type="number" min="1" step="1" value={form.usageLimit} onInput={set('usageLimit')} />
        </label>
        <label>
          {t('promotions.expiresAt')}
          <input name="expiresAt" type="datetime-local" value={form.expiresAt} onInput={set('expiresAt')} />
        </label>
        {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
        <div class="actions">
          <button type="submit" class="primary" disabled={submission.busy}>
            {t('promotions.add')}
          </button>
        </div>
      </form>
      {action.error && <ErrorNotice>{action.error}</ErrorNotice>}
      <AsyncView resource={data} what={t('promotions.what')}>
        {(promotions) =>
          promotions.length === 0 ? (
            <p class="notice">{t('promotions.none')}</p>
          ) : (
            <table class="table" data-promotions>
              <thead>
                <tr>
                  <th scope="col">{t('promotions.code')}</th>
                  <th scope="col">{t('promotions.value')}</th>
                  <th scope="col">{t('promotions.used')}</th>
                  <th scope="col">{t('promotions.expires')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {promotions.map((promotion) => (
                  <tr key={promotion.code} data-promotion={promotion.code}>
                    <td>
                      <code>{promotion.code}</code>
                    </td>
                    <td>{promotion.kind === 'percent' ? `${promotion.value}%` : usd(promotion.value / 1_000_000)}</td>
                    <td>
                      {count(promotion.usedCount)}
                      {promotion.usageLimit === null ? '' : ` / ${count(promotion.usageLimit)}`}
                    </td>
                    <td>{promotion.expiresAt === null ? t('promotions.never') : dateTime(new Date(promotion.expiresAt).toISOString())}</td>
                    <td>
                      <button type="button" class="small" onClick={() => remove(promotion.code)}>
                        {t('promotions.delete')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </AsyncView>
    </section>
  );
}
