import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { call } from '../lib/api.ts';
import { inputValue } from '../lib/input-value.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

/** The money-in part of `GET /api/admin/account-settings`. */
export interface PaymentRules {
  topUp: { minUsd: number; maxUsd: number; presetsUsd: number[]; bonusTiers: Array<{ fromUsd: number; bonusPercent: number }> };
  referral: { ratePercent: number; holdDays: number; withdrawalsEnabled?: boolean; withdrawMinUsd?: number };
  exchangeRates: Record<string, number>;
}

/** "a, b" lines as pairs; a line that is not two values is an error naming it. */
function pairs(text: string): Array<[string, string]> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const parts = line.split(/[,，\s]+/).filter(Boolean);
      if (parts.length !== 2) throw new Error(t('paymentSettings.badLine', { line }));
      return [parts[0] as string, parts[1] as string];
    });
}

/** Top-up rules (minimum, maximum, presets, bonus tiers), exchange rates and referral settings, saved as one PATCH. */
export function PaymentRulesCard(props: { rules: PaymentRules; bearer: string; onSaved: () => void }) {
  const { topUp, referral, exchangeRates } = props.rules;
  const [form, setForm] = useState({
    minUsd: String(topUp.minUsd),
    maxUsd: String(topUp.maxUsd),
    presets: topUp.presetsUsd.join(', '),
    tiers: topUp.bonusTiers.map((tier) => `${tier.fromUsd}, ${tier.bonusPercent}`).join('\n'),
    rates: Object.entries(exchangeRates)
      .map(([code, rate]) => `${code}, ${rate}`)
      .join('\n'),
    ratePercent: String(referral.ratePercent),
    holdDays: String(referral.holdDays),
    withdrawMinUsd: String(referral.withdrawMinUsd ?? 10),
  });
  const [withdrawals, setWithdrawals] = useState(referral.withdrawalsEnabled ?? false);
  const [saved, setSaved] = useState(false);
  const submission = useSubmit();
  const field = (name: keyof typeof form, label: string, multiline = false) => (
    <label>
      {t(label)}
      {multiline ? (
        <textarea name={name} rows={3} value={form[name]} onInput={(event) => setForm({ ...form, [name]: inputValue(event) })} />
      ) : (
        <input name={name} value={form[name]} onInput={(event) => setForm({ ...form, [name]: inputValue(event) })} />
      )}
    </label>
  );
  const save = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    return submission.run(async () => {
      const body = {
        topUp: {
          minUsd: Number(form.minUsd),
          maxUsd: Number(form.maxUsd),
          presetsUsd: form.presets
            .split(/[,，\s]+/)
            .filter(Boolean)
            .map(Number),
          bonusTiers: pairs(form.tiers).map(([from, bonus]) => ({ fromUsd: Number(from), bonusPercent: Number(bonus) })),
        },
        exchangeRates: Object.fromEntries(pairs(form.rates).map(([code, rate]) => [code.toUpperCase(), Number(rate)])),
        referral: { ratePercent: Number(form.ratePercent), holdDays: Number(form.holdDays), withdrawalsEnabled: withdrawals, withdrawMinUsd: Number(form.withdrawMinUsd) },
      };
      await call('/api/admin/account-settings', { method: 'PATCH', bearer: props.bearer, body });
      setSaved(true);
      props.onSaved();
    });
  };
  return (
    <form class="card form" onSubmit={save} data-payment-rules>
      <h2>{t('paymentSettings.topUp')}</h2>
      {field('minUsd', 'paymentSettings.minUsd')}
      {field('maxUsd', 'paymentSettings.maxUsd')}
      {field('presets', 'paymentSettings.presets')}
      {field('tiers', 'paymentSettings.bonusTiers', true)}
      {field('rates', 'paymentSettings.exchangeRates', true)}
      <h2>{t('paymentSettings.referral')}</h2>
      {field('ratePercent', 'paymentSettings.ratePercent')}
      {field('holdDays', 'paymentSettings.holdDays')}
      <label class="inline">
        <input type="checkbox" name="withdrawalsEnabled" checked={withdrawals} onChange={(event) => setWithdrawals((event.target as HTMLInputElement).checked)} />
        {t('paymentSettings.withdrawalsEnabled')}
      </label>
      {field('withdrawMinUsd', 'paymentSettings.withdrawMinUsd')}
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
