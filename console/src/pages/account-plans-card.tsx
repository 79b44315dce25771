import { usd } from '../lib/format.ts';
import { t } from '../i18n/i18n.ts';

/** `GET /api/account/checkout-options`: the enabled providers, the top-up rules and the plans sold at checkout. */
export interface CheckoutOptions {
  providers: Array<{ name: 'stripe' | 'epay' | 'manual'; instructions?: string }>;
  topUp: { minUsd: number; maxUsd: number; presetsUsd: number[]; bonusTiers: Array<{ fromUsd: number; bonusPercent: number }> };
  plans: Array<{ id: string; name: string; description: string; durationDays: number; priceUsd: number }>;
}

/** Under the amount: the presets to pick, the limits and the bonus tiers ("pay 100, get 10 % more"). */
export function TopUpHints(props: { topUp: CheckoutOptions['topUp']; onPick: (usdAmount: number) => void }) {
  const { topUp } = props;
  return (
    <div data-top-up-hints>
      <div class="actions">
        {topUp.presetsUsd.map((preset) => (
          <button type="button" class="small" key={preset} onClick={() => props.onPick(preset)}>
            {usd(preset)}
          </button>
        ))}
      </div>
      <p class="muted">
        {t('topUp.limits', { min: usd(topUp.minUsd), max: usd(topUp.maxUsd) })}
        {topUp.bonusTiers.map((tier) => (
          <span key={tier.fromUsd}> {t('topUp.bonusTier', { from: usd(tier.fromUsd), bonus: tier.bonusPercent })}</span>
        ))}
      </p>
    </div>
  );
}

/** The plans sold at checkout: each with its price and term, bought with the provider chosen above. */
export function AccountPlansCard(props: { plans: CheckoutOptions['plans']; busy: boolean; onBuy: (planId: string) => void }) {
  return (
    <div class="card" data-plans>
      <h2>{t('topUp.plans')}</h2>
      <ul class="sub-list">
        {props.plans.map((plan) => (
          <li key={plan.id} data-plan={plan.name}>
            <strong>{plan.name}</strong> · {usd(plan.priceUsd)} · {t('topUp.planDays', { count: plan.durationDays })}
            {plan.description ? ` · ${plan.description}` : ''}{' '}
            <button type="button" class="small" disabled={props.busy} onClick={() => props.onBuy(plan.id)}>
              {t('topUp.buy')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
