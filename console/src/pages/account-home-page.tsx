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

/** An account's home: the wallet, each subscription's windows, and what blocks them, in words. */
export function AccountHomePage(props: { session: Extract<Session, { role: 'account' }> }) {
  const account = useResource(() => loadAccount(props.session), [props.session.csrf]);
  return (
    <section>
      <PageHead title="Home" onRefresh={account.reload} />
      <AccountAnnouncements session={props.session} />
      <AsyncView resource={account} what="your account">
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
          Your account is disabled by the operator: every key of yours is refused. Ask the operator to enable it.
        </p>
      )}
      {blocked.map(({ subscription, problem }) => (
        <p class="notice error" role="alert" key={subscription.id} data-blocked={subscription.id}>
          <strong>{subscription.planName ?? 'Your subscription'}</strong>: {problem}
        </p>
      ))}
      <div class="cards">
        <dl class="stat card">
          <dt>Wallet</dt>
          <dd data-wallet>{usd(view.user.balance)}</dd>
        </dl>
        <dl class="stat card">
          <dt>Active subscriptions</dt>
          <dd>{view.subscriptions.filter((subscription) => subscription.status === 'active').length}</dd>
        </dl>
        <dl class="stat card">
          <dt>Signed in as</dt>
          <dd class="small-text">
            {view.user.name}
            {view.user.email ? ` (${view.user.email})` : ''}
          </dd>
        </dl>
      </div>
      <h2>Subscriptions</h2>
      {view.subscriptions.length === 0 ? (
        <p class="notice">
          You have no subscription yet. If you have a code,{' '}
          <a href="/console/redeem" onClick={(event) => followLink(event, '/redeem')}>
            redeem it
          </a>
          ; otherwise ask the operator for one.
          {view.groups.some((group) => group.via === 'default') && ' Meanwhile you can use the operator’s default group, paid from your wallet.'}
        </p>
      ) : (
        <div class="two-columns">
          {view.subscriptions.map((subscription) => (
            <article class="card sub-card" key={subscription.id} data-subscription={subscription.planName ?? subscription.id}>
              <h3>
                {subscription.planName ?? 'Subscription'}{' '}
                <span class={`badge ${subscription.status === 'active' ? 'ok' : subscription.status === 'suspended' ? 'warn' : 'down'}`} data-status>
                  {subscription.status}
                </span>
              </h3>
              <p class="small-text muted">
                Group {subscription.group ?? '—'} · {dateTime(subscription.startsAt)} → {dateTime(subscription.expiresAt)} (
                {subscription.status === 'expired' ? 'ended' : `ends ${timeUntil(subscription.expiresAt)}`})
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
                <p class="muted small-text">No quota: use is limited only by the term.</p>
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
    return 'the operator suspended this subscription, so requests in its group are refused (subscription_suspended). Only the operator can resume it: contact them.';
  }
  if (subscription.status === 'expired' || (subscription.expiresAt !== null && Date.parse(subscription.expiresAt) <= Date.now())) {
    return `this subscription expired on ${dateTime(subscription.expiresAt)} (subscription_expired). Redeem a new code or ask the operator to extend it.`;
  }
  for (const window of QUOTA_WINDOWS) {
    const quota = subscription.quota?.[window];
    if (quota === undefined || quota === null) continue;
    if ((subscription.usage?.[window] ?? 0) >= quota) {
      const reset = window === 'total' ? 'it does not reset before the term ends' : `it resets ${dateTime(subscription.resetsAt?.[window] ?? null)}`;
      return `the ${window} quota of ${usd(quota)} is used up (subscription_quota_exhausted); ${reset}.`;
    }
  }
  return null;
}
