import { MarginPage } from './pages/margin-page.tsx';
import { useEffect, useState } from 'preact/hooks';
import { AccountHomePage } from './pages/account-home-page.tsx';
import { AccountKeysPage } from './pages/account-keys-page.tsx';
import { AccountRedeemPage } from './pages/account-redeem-page.tsx';
import { AccountTopUpPage } from './pages/account-top-up-page.tsx';
import { OrdersPage } from './pages/orders-page.tsx';
import { PaymentSettingsPage } from './pages/payment-settings-page.tsx';
import { PromotionsPage } from './pages/promotions-page.tsx';
import { PayoutsPage } from './pages/payouts-page.tsx';
import { AccountStatementPage } from './pages/account-statement-page.tsx';
import { AccountUsagePage } from './pages/account-usage-page.tsx';
import { CodesPage } from './pages/codes-page.tsx';
import { PlansPage } from './pages/plans-page.tsx';
import { SubscriptionsPage } from './pages/subscriptions-page.tsx';
import { UsersPage } from './pages/users-page.tsx';
import { LanguageSwitcher } from './components/language-switcher.tsx';
import { t } from './i18n/i18n.ts';
import { signOutAccount } from './lib/account-api.ts';
import { call, SESSION_ENDED_EVENT, setConsoleCsrf } from './lib/api.ts';
import { AdminsPage } from './pages/admins-page.tsx';
import { LoginPage } from './pages/login-page.tsx';
import { AuditPage } from './pages/audit-page.tsx';
import { AlertsPage } from './pages/alerts-page.tsx';
import { AnnouncementsPage } from './pages/announcements-page.tsx';
import { ChannelsPage } from './pages/channels-page.tsx';
import { ConnectPage } from './pages/connect-page.tsx';
import { KeysPage } from './pages/keys-page.tsx';
import { LogsPage } from './pages/logs-page.tsx';
import { MatrixPage } from './pages/matrix-page.tsx';
import { ModelCheckPage } from './pages/model-check-page.tsx';
import { MyKeyPage } from './pages/my-key-page.tsx';
import { OverviewPage } from './pages/overview-page.tsx';
import { PricingPage } from './pages/pricing-page.tsx';
import { ResetPasswordPage } from './pages/reset-password-page.tsx';
import { SecurityPage } from './pages/security-page.tsx';
import { followLink, navigate, usePath } from './lib/router.ts';
import { loadSession, saveSession, type Session } from './lib/session.ts';

interface PageEntry {
  path: string;
  /** Catalogue key of the page's name in the page list. */
  label: string;
  render: (session: Session) => preact.JSX.Element;
}

const OPERATOR_PAGES: PageEntry[] = [
  { path: '/', label: 'nav.overview', render: (session) => <OverviewPage session={session} /> },
  { path: '/matrix', label: 'nav.matrix', render: (session) => <MatrixPage session={session} /> },
  { path: '/channels', label: 'nav.channels', render: (session) => <ChannelsPage session={session} /> },
  { path: '/keys', label: 'nav.keys', render: (session) => <KeysPage session={session} /> },
  { path: '/users', label: 'nav.users', render: (session) => <UsersPage session={session} /> },
  { path: '/plans', label: 'nav.plans', render: (session) => <PlansPage session={session} /> },
  { path: '/subscriptions', label: 'nav.subscriptions', render: (session) => <SubscriptionsPage session={session} /> },
  { path: '/codes', label: 'nav.codes', render: (session) => <CodesPage session={session} /> },
  { path: '/orders', label: 'nav.orders', render: (session) => <OrdersPage session={session} /> },
  { path: '/payments', label: 'nav.payments', render: (session) => <PaymentSettingsPage session={session} /> },
  { path: '/promotions', label: 'nav.promotions', render: (session) => <PromotionsPage session={session} /> },
  { path: '/payouts', label: 'nav.payouts', render: (session) => <PayoutsPage session={session} /> },
  { path: '/logs', label: 'nav.logs', render: (session) => <LogsPage session={session} /> },
  { path: '/connect', label: 'nav.connect', render: (session) => <ConnectPage session={session} /> },
  { path: '/check', label: 'nav.check', render: (session) => <ModelCheckPage session={session} /> },
  { path: '/pricing', label: 'nav.pricing', render: (session) => <PricingPage session={session} /> },
  { path: '/margin', label: 'nav.margin', render: (session) => <MarginPage session={session} /> },
  { path: '/audit', label: 'nav.audit', render: (session) => <AuditPage session={session} /> },
  { path: '/alerts', label: 'nav.alerts', render: (session) => <AlertsPage session={session} /> },
  { path: '/announcements', label: 'nav.announcements', render: (session) => <AnnouncementsPage session={session} /> },
];

/** The owner's pages: the break-glass token is an owner, and so is a signed-in owner. */
const OWNER_PAGES: PageEntry[] = [{ path: '/admins', label: 'nav.admins', render: (session) => <AdminsPage session={session} /> }];
/** A named admin's own sign-in (passkeys); a token has none. */
const SECURITY_PAGE: PageEntry = { path: '/security', label: 'security.title', render: (session) => <SecurityPage session={session} /> };
const operatorPages = (session: Extract<Session, { role: 'operator' }>) => {
  const pages = session.admin === undefined || session.admin.role === 'owner' ? [...OPERATOR_PAGES, ...OWNER_PAGES] : OPERATOR_PAGES;
  return session.admin === undefined ? pages : [...pages, SECURITY_PAGE];
};

const KEY_PAGES: PageEntry[] = [
  { path: '/', label: 'nav.myKey', render: (session) => <MyKeyPage session={session} /> },
  { path: '/connect', label: 'nav.connect', render: (session) => <ConnectPage session={session} /> },
  { path: '/check', label: 'nav.check', render: (session) => <ModelCheckPage session={session} /> },
];

type AccountSession = Extract<Session, { role: 'account' }>;
const asAccount = (session: Session) => session as AccountSession;

const ACCOUNT_PAGES: PageEntry[] = [
  { path: '/', label: 'nav.home', render: (session) => <AccountHomePage session={asAccount(session)} /> },
  { path: '/keys', label: 'nav.keys', render: (session) => <AccountKeysPage session={asAccount(session)} /> },
  { path: '/redeem', label: 'nav.redeem', render: (session) => <AccountRedeemPage session={asAccount(session)} /> },
  { path: '/orders', label: 'nav.topUp', render: (session) => <AccountTopUpPage session={asAccount(session)} /> },
  { path: '/statement', label: 'nav.statement', render: (session) => <AccountStatementPage session={asAccount(session)} /> },
  { path: '/usage', label: 'nav.usage', render: (session) => <AccountUsagePage session={asAccount(session)} /> },
  { path: '/connect', label: 'nav.connect', render: (session) => <ConnectPage session={session} /> },
  SECURITY_PAGE,
];

const ROLE_LABEL: Record<Session['role'], string> = { operator: 'app.roleOperator', key: 'app.roleKey', account: 'app.roleAccount' };

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  // A named admin's calls ride on the console session cookie with its CSRF token.
  setConsoleCsrf(session?.role === 'operator' ? (session.admin?.csrf ?? null) : null);
  const [ended, setEnded] = useState(false);
  // On a phone the page list folds behind a Menu button (CSS shows the button only there).
  const [menuOpen, setMenuOpen] = useState(false);
  const path = usePath();
  useEffect(() => setMenuOpen(false), [path]);

  // The gateway refused the account's session cookie (expired, or signed out in another tab).
  useEffect(() => {
    const onEnded = () => {
      saveSession(null);
      setSession(null);
      setEnded(true);
    };
    addEventListener(SESSION_ENDED_EVENT, onEnded);
    return () => removeEventListener(SESSION_ENDED_EVENT, onEnded);
  }, []);

  const signIn = (next: Session) => {
    saveSession(next);
    setSession(next);
    setEnded(false);
    navigate('/');
  };
  const signOut = async () => {
    if (session?.role === 'account') await signOutAccount(session).catch(() => undefined);
    if (session?.role === 'operator' && session.admin) await call('/api/admin/session', { method: 'DELETE' }).catch(() => undefined);
    saveSession(null);
    setSession(null);
    navigate('/');
  };

  // The e-mailed reset link works signed in or not: it changes the password of the link's account.
  if (path === '/reset-password') return <ResetPasswordPage />;
  if (!session) return <LoginPage onSignIn={signIn} sessionEnded={ended} />;
  const pages = session.role === 'operator' ? operatorPages(session) : session.role === 'account' ? ACCOUNT_PAGES : KEY_PAGES;
  const page = pages.find((entry) => entry.path === (path.replace(/\/+$/, '') || '/'));

  return (
    <div class="layout">
      <a class="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <header class={`topbar${menuOpen ? ' menu-open' : ''}`}>
        <span class="brand">Switchyard</span>
        <button type="button" class="small menu-toggle" aria-expanded={menuOpen} aria-controls="pages-nav" onClick={() => setMenuOpen((open) => !open)}>
          <span aria-hidden="true">☰</span> {t('app.menu')}
          {page ? <span class="menu-current">: {t(page.label)}</span> : null}
        </button>
        <nav aria-label={t('app.pages')} id="pages-nav">
          <ul>
            {pages.map((entry) => (
              <li key={entry.path}>
                <a
                  href={`/console${entry.path === '/' ? '/' : entry.path}`}
                  aria-current={entry === page ? 'page' : undefined}
                  onClick={(event) => followLink(event, entry.path)}
                >
                  {t(entry.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {t(ROLE_LABEL[session.role])}
          {session.role === 'account' && `: ${session.name}`}
          {session.role === 'operator' && session.admin && `: ${session.admin.name} (${session.admin.role})`}
        </span>
        <LanguageSwitcher />
        <button type="button" class="small" onClick={signOut}>
          {t('app.signOut')}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {page ? (
          page.render(session)
        ) : (
          <section>
            <h1>{t('app.notFound')}</h1>
            <p>
              {t('app.notFoundText')} <code>{path}</code>{' '}
              <a href="/console/" onClick={(event) => followLink(event, '/')}>
                {t('app.goStart')}
              </a>
            </p>
          </section>
        )}
      </main>
    </div>
  );
}
