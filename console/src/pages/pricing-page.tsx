import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { UnpricedWarning } from '../components/unpriced-warning.tsx';
import { loadAdminData } from '../lib/admin-data.ts';
import { call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { DASH, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';

/** Per-model list prices (USD per million tokens) and each group's multiplier. */
export function PricingPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const data = useResource(() => loadAdminData(token), [token]);
  // "Set price" links from other pages arrive as ?model=NAME.
  const [form, setForm] = useState({ model: new URLSearchParams(location.search).get('model') ?? '', input: '', output: '', cacheRead: '', cacheWrite: '' });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const save = async (event: Event) => {
    event.preventDefault();
    const optional = (value: string) => (value.trim() === '' ? null : Number(value));
    try {
      await call('/api/admin/prices', {
        method: 'POST',
        bearer: token,
        body: { model: form.model.trim(), input: Number(form.input), output: Number(form.output), cacheRead: optional(form.cacheRead), cacheWrite: optional(form.cacheWrite) },
      });
      setMessage({ ok: true, text: t('pricing.saved', { model: form.model.trim() }) });
      data.reload();
    } catch (error) {
      setMessage({ ok: false, text: errorMessage(error) });
    }
  };
  const setMultiplier = async (group: string, value: string) => {
    try {
      await call(`/api/admin/groups/${encodeURIComponent(group)}`, { method: 'PATCH', bearer: token, body: { priceMultiplier: Number(value) } });
      setMessage({ ok: true, text: t('pricing.multiplierSet', { group, value }) });
      data.reload();
    } catch (error) {
      setMessage({ ok: false, text: errorMessage(error) });
    }
  };

  const input = (name: keyof typeof form, label: string, type = 'number') => (
    <label>
      {label}
      <input
        name={name}
        type={type}
        {...(type === 'number' ? { min: '0', step: 'any' } : {})}
        required={name === 'model' || name === 'input' || name === 'output'}
        value={form[name]}
        onInput={(event) => setForm((current) => ({ ...current, [name]: inputValue(event) }))}
      />
    </label>
  );

  return (
    <section>
      <h1>{t('pricing.title')}</h1>
      {message && (
        <p class={`notice ${message.ok ? 'success' : 'error'}`} role="status">
          {message.text}
        </p>
      )}
      <AsyncView resource={data} what={t('pricing.what')}>
        {(admin) => (
          <>
          <UnpricedWarning
            admin={admin}
            onPrice={(model) => {
              setForm((current) => ({ ...current, model }));
              document.querySelector<HTMLInputElement>('input[name="input"]')?.focus();
            }}
          />
          <div class="two-columns">
            <div class="card">
              <h2>{t('pricing.modelPrices')}</h2>
              {admin.prices.length === 0 ? (
                <p class="muted">{t('pricing.none')}</p>
              ) : (
                <div class="table-wrap">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{t('pricing.model')}</th>
                        <th scope="col" class="num">{t('pricing.input')}</th>
                        <th scope="col" class="num">{t('pricing.output')}</th>
                        <th scope="col" class="num">{t('pricing.cacheRead')}</th>
                        <th scope="col" class="num">{t('pricing.cacheWrite')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {admin.prices.map((price) => (
                        <tr key={price.model}>
                          <td>
                            <code>{price.model}</code>
                          </td>
                          <td class="num">{usd(price.input)}</td>
                          <td class="num">{usd(price.output)}</td>
                          <td class="num">{usd(price.cacheRead, DASH)}</td>
                          <td class="num">{usd(price.cacheWrite, DASH)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <form class="filters" onSubmit={save} aria-label={t('pricing.formLabel')}>
                {input('model', t('pricing.model'), 'text')}
                {input('input', t('pricing.input'))}
                {input('output', t('pricing.output'))}
                {input('cacheRead', t('pricing.cacheRead'))}
                {input('cacheWrite', t('pricing.cacheWrite'))}
                <button type="submit" class="primary">
                  {t('pricing.save')}
                </button>
              </form>
            </div>
            <div class="card">
              <h2>{t('pricing.multipliers')}</h2>
              <p class="muted small-text">{t('pricing.multipliersIntro')}</p>
              <table>
                <tbody>
                  {admin.groups.map((group) => (
                    <tr key={group.name}>
                      <th scope="row">{group.name}</th>
                      <td>
                        <form
                          class="inline-form"
                          onSubmit={(event) => {
                            event.preventDefault();
                            const field = (event.currentTarget as HTMLFormElement).elements.namedItem('multiplier') as HTMLInputElement;
                            void setMultiplier(group.name, field.value);
                          }}
                        >
                          <label class="visually-hidden" for={`multiplier-${group.name}`}>
                            {t('pricing.multiplierOf', { group: group.name })}
                          </label>
                          <input id={`multiplier-${group.name}`} name="multiplier" type="number" min="0.0001" step="any" value={group.priceMultiplier} />
                          <button type="submit" class="small">
                            {t('pricing.set')}
                          </button>
                        </form>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
          </>
        )}
      </AsyncView>
    </section>
  );
}
