import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { call } from '../lib/api.ts';
import { inputValue } from '../lib/input-value.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

/** A provider as `GET /api/admin/payment-providers` shows it: settings, secrets masked (`…last4`) or null. */
export type ProviderView = Record<string, unknown> & { name: 'stripe' | 'epay' | 'manual'; enabled: boolean };

/** Each provider's fields, in the order shown; secrets are write-only. */
const FIELDS: Record<ProviderView['name'], Array<{ name: string; label: string; secret?: boolean; multiline?: boolean }>> = {
  stripe: [
    { name: 'secretKey', label: 'paymentSettings.secretKey', secret: true },
    { name: 'webhookSecret', label: 'paymentSettings.webhookSecret', secret: true },
    { name: 'apiBase', label: 'paymentSettings.apiBase' },
    { name: 'currency', label: 'paymentSettings.currency' },
  ],
  epay: [
    { name: 'pid', label: 'paymentSettings.pid' },
    { name: 'key', label: 'paymentSettings.key', secret: true },
    { name: 'apiBase', label: 'paymentSettings.apiBase' },
    { name: 'payType', label: 'paymentSettings.payType' },
    { name: 'currency', label: 'paymentSettings.currency' },
  ],
  manual: [
    { name: 'currency', label: 'paymentSettings.currency' },
    { name: 'instructions', label: 'paymentSettings.instructions', multiline: true },
  ],
};

const NOTIFY_PATH: Record<ProviderView['name'], string | null> = { stripe: '/api/payments/stripe/webhook', epay: '/api/payments/epay/notify', manual: null };
const TITLE: Record<ProviderView['name'], string> = { stripe: 'topUp.stripe', epay: 'topUp.epay', manual: 'topUp.manual' };

/**
 * One provider's settings form. A secret's input starts empty and shows what is stored only as
 * its mask; an empty secret is left out of the PATCH, so the stored one is kept.
 */
export function ProviderCard(props: { provider: ProviderView; bearer: string; onSaved: () => void }) {
  const { provider } = props;
  const [enabled, setEnabled] = useState(provider.enabled);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(FIELDS[provider.name].map((field) => [field.name, field.secret ? '' : String(provider[field.name] ?? '')])),
  );
  const [saved, setSaved] = useState(false);
  const submission = useSubmit();
  const save = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    return submission.run(async () => {
      const body: Record<string, unknown> = { enabled };
      for (const field of FIELDS[provider.name]) {
        const value = (values[field.name] ?? '').trim();
        if (value !== '') body[field.name] = value;
        else if (field.name === 'apiBase' && provider.name === 'stripe' && provider.apiBase) body.apiBase = null;
      }
      await call(`/api/admin/payment-providers/${provider.name}`, { method: 'PATCH', bearer: props.bearer, body });
      setValues((current) => Object.fromEntries(Object.entries(current).map(([name, value]) => [name, FIELDS[provider.name].find((field) => field.name === name)?.secret ? '' : value])));
      setSaved(true);
      props.onSaved();
    });
  };
  const notify = NOTIFY_PATH[provider.name];
  return (
    <form class="card form" onSubmit={save} data-provider={provider.name}>
      <h3>{t(TITLE[provider.name])}</h3>
      {notify && <p class="muted">{t('paymentSettings.webhook', { url: `${location.origin}${notify}` })}</p>}
      <label class="inline">
        <input type="checkbox" name="enabled" checked={enabled} onChange={(event) => setEnabled((event.target as HTMLInputElement).checked)} />
        {t('paymentSettings.enabled')}
      </label>
      {FIELDS[provider.name].map((field) => (
        <label key={field.name}>
          {t(field.label)}
          {field.multiline ? (
            <textarea name={field.name} value={values[field.name]} onInput={(event) => setValues({ ...values, [field.name]: inputValue(event) })} />
          ) : (
            <input
              name={field.name}
              type={field.secret ? 'password' : 'text'}
              autoComplete="off"
              value={values[field.name]}
              placeholder={field.secret ? (provider[field.name] ? t('paymentSettings.stored', { mask: String(provider[field.name]) }) : t('paymentSettings.notSet')) : undefined}
              onInput={(event) => setValues({ ...values, [field.name]: inputValue(event) })}
            />
          )}
        </label>
      ))}
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <div class="actions">
        <button type="submit" class="primary" disabled={submission.busy}>
          {t('paymentSettings.save')}
        </button>
        {saved && <span role="status">{t('paymentSettings.saved')}</span>}
      </div>
    </form>
  );
}
