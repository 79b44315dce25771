import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';
import { PaymentRulesCard, type PaymentRules } from './payment-rules-card.tsx';
import { ProviderCard, type ProviderView } from './provider-card.tsx';

/** The operator's payment settings: each provider (secrets write-only), the top-up rules, exchange rates and referral. */
export function PaymentSettingsPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const data = useResource(async () => {
    const [providers, rules] = await Promise.all([
      call<{ data: ProviderView[] }>('/api/admin/payment-providers', { bearer }),
      call<PaymentRules>('/api/admin/account-settings', { bearer }),
    ]);
    return { providers: providers.data, rules };
  }, [bearer]);
  return (
    <section>
      <PageHead title={t('paymentSettings.title')} onRefresh={data.reload} />
      <AsyncView resource={data} what={t('paymentSettings.what')}>
        {(loaded) => (
          <>
            <h2>{t('paymentSettings.providers')}</h2>
            <p class="muted">{t('paymentSettings.providersHelp')}</p>
            <div class="card-grid">
              {loaded.providers.map((provider) => (
                <ProviderCard key={provider.name} provider={provider} bearer={bearer} onSaved={data.reload} />
              ))}
            </div>
            <PaymentRulesCard rules={loaded.rules} bearer={bearer} onSaved={data.reload} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
