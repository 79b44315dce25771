import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { QuotaBar } from '../components/quota-bar.tsx';
import { timeUntil, WINDOW_LABEL } from '../lib/account-format.ts';
import { loadAccount } from '../lib/account-api.ts';
import { QUOTA_WINDOWS } from '../../../src/domain/plan.ts';
import { type PortalAccountView as AccountView } from '../../../src/domain/account-portal-api.ts';
import { dateTime, usd } from '../lib/format.ts';
import { followLink } from '../lib/router.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { ModelCheckCard } from './account-model-check.tsx';
import { AccountAnnouncements } from './account-announcements.tsx';
import { statusName } from '../i18n/status-name.ts';
import { t } from '../i18n/i18n.ts';

/** An account's home: the wallet, each subscription's windows, and what blocks them, in words. */
export function AccountHomePage(props: { session: Extract<Session, { role: 'account' }> }) {
  const account = useResource(() => loadAccount(props.session), [props.session.csrf]);
  return (
    <section>
      <PageHead title={t('home.title')} onRefresh={account.reload} />
      <AccountAnnouncements session={props.session} />
      <AsyncView resource={account} what={t('home.what')}>
        {(view) => <HomeView view={view} session={props.session} />}
      </AsyncView>
    </section>
  );
}

function HomeView({ view, session }: { view: AccountView; session: Extract<Session, { role: 'account' }> }) {
  const blocked = view.subscriptions.map((subscription) => ({ subscription, problem: problemOf(subscription) })).filter((entry) => entry.problem);
  return (
    <>
      {!view.user.enabled && (
        <p class="notice error" role="alert">
          {t('home.disabled')}
        </p>
      )}
      {blocked.map(({ subscription, problem }) => (
        <p class="notice error" role="alert" key={subscription.id} data-blocked={subscription.id}>
          <strong>{subscription.planName ?? t('home.yourSubscription')}</strong>: {problem}
        </p>
      ))}
      <div class="cards">
        <dl class="stat card">
          <dt>{t('home.wallet')}</dt>
          <dd data-wallet>{usd(view.user.balance)}</dd>
        </dl>
        <dl class="stat card">
          <dt>{t('home.activeSubscriptions')}</dt>
          <dd>{view.subscriptions.filter((subscription) => subscription.status === 'active').length}</dd>
        </dl>
        <dl class="stat card">
          <dt>{t('home.signedInAs')}</dt>
          <dd class="small-text">
            {view.user.name}
            {view.user.email ? ` (${view.user.email})` : ''}
          </dd>
        </dl>
      </div>
      <h2>{t('home.subscriptions')}</h2>
      {view.subscriptions.length === 0 ? (
        <p class="notice">
          {t('home.noSubscription')}{' '}
          <a href="/console/redeem" onClick={(event) => followLink(event, '/redeem')}>
            {t('home.redeemIt')}
          </a>
          {t('home.otherwiseAsk')}
          {view.groups.some((group) => group.via === 'default') && t('home.meanwhileDefault')}
        </p>
      ) : (
        <div class="two-columns">
          {view.subscriptions.map((subscription) => (
            <article class="card sub-card" key={subscription.id} data-subscription={subscription.planName ?? subscription.id}>
              <h3>
                {subscription.planName ?? t('home.subscription')}{' '}
                <span class={`badge ${subscription.status === 'active' ? 'ok' : subscription.status === 'suspended' ? 'warn' : 'down'}`} data-status>
                  {statusName(subscription.status)}
                </span>
              </h3>
              <p class="small-text muted">
                {t('home.groupTerm', { group: subscription.group ?? '—', start: dateTime(subscription.startsAt), end: dateTime(subscription.expiresAt) })}{' '}
                {subscription.status === 'expired' ? t('home.ended') : t('home.ends', { when: timeUntil(subscription.expiresAt) })}
              </p>
              {QUOTA_WINDOWS.filter((window) => subscription.quota?.[window] !== undefined && subscription.quota?.[window] !== null).map((window) => (
                <QuotaBar
                  key={window}
                  label={WINDOW_LABEL[window]}
                  used={subscription.usage?.[window] ?? 0}
                  quota={subscription.quota?.[window] ?? null}
                  resetsAt={window === 'total' ? null : subscription.resetsAt?.[window]}
                />
              ))}
              {QUOTA_WINDOWS.every((window) => subscription.quota?.[window] === undefined || subscription.quota?.[window] === null) && (
                <p class="muted small-text">{t('home.noQuota')}</p>
              )}
            </article>
          ))}
        </div>
      )}
      <ModelCheckCard session={session} view={view} />
    </>
  );
}

/** Why a subscription stops requests, in the account holder's words (the gateway's 403 codes). */
export function problemOf(subscription: AccountView['subscriptions'][number]): string | null {
  if (subscription.status === 'suspended') {
    return t('home.suspended');
  }
  if (subscription.status === 'expired' || (subscription.expiresAt !== null && Date.parse(subscription.expiresAt) <= Date.now())) {
    return t('home.expired', { time: dateTime(subscription.expiresAt) });
  }
  for (const window of QUOTA_WINDOWS) {
    const quota = subscription.quota?.[window];
    if (quota === undefined || quota === null) continue;
    if ((subscription.usage?.[window] ?? 0) >= quota) {
      const reset = window === 'total' ? t('home.noReset') : t('home.resets', { time: dateTime(subscription.resetsAt?.[window] ?? null) });
      return t('home.exhausted', { window: t(`windowName.${window}`), quota: usd(quota), reset });
    }
  }
  return null;
}
