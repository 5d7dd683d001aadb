import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, setCsrfToken, whenUnauthenticated } from './api';
import { match } from './paths';
import { Link, navigate, usePath } from './router';
import { Skeleton } from './components';
import { SignInPage } from './pages/sign-in';
import { AccountSecurityPage } from './pages/account-security';
import { ApiTokensPage } from './pages/api-tokens';
import { InviteMembersPage, NotificationSettingsPage } from './pages/notifications';
import { AlertRulesPage, MetricAlertsPage } from './pages/alerts';
import { NewServiceHookPage, ServiceHookPage, ServiceHooksPage } from './pages/service-hooks';
import { NewProjectPage, ProjectKeysPage, ProjectPage, ProjectSettingsPage, ProjectsPage } from './pages/projects';
import { InstanceAdminPage } from './pages/instance-admin';
import { IssuePage, IssuesPage } from './pages/issues';
import { ReleasesPage } from './pages/releases';
import { ReleasePage } from './pages/release';
import { CronMonitorPage, CronsPage } from './pages/crons';
import { UsagePage } from './pages/usage';
import { AuthProviderPage, MembersPage, TeamPage, TeamsPage } from './pages/organization';
import { AcceptInvitePage, takeNotice } from './pages/accept-invite';
import { AcceptTransferPage } from './pages/accept-transfer';
import { InboundFiltersPage } from './pages/inbound-filters';
import { OwnershipRulesPage } from './pages/ownership-rules';
import { RateLimitsPage, SpikeNotice } from './pages/rate-limits';
import { OrganizationSecurityAndPrivacyPage, ProjectSecurityAndPrivacyPage } from './pages/security-and-privacy';
import { DeveloperSettingsPage, IntegrationsPage, NewIntegrationPage, SentryAppPage, SentryAppRequestsPage } from './pages/developer-settings';
import './styles.css';

export interface Session {
  user: { id: string; email: string; name: string; isSuperuser: boolean };
  organizations: Array<{ slug: string; name: string }>;
}

type Page = (props: { params: Record<string, string>; session: Session }) => preact.JSX.Element;

/** Sentry's URLs, most specific first. */
const ROUTES: Array<[string, Page]> = [
  ['/settings/account/api/auth-tokens/', ApiTokensPage],
  ['/settings/account/notifications/', NotificationSettingsPage],
  ['/settings/account/security/', AccountSecurityPage],
  ['/settings/:org/members/invite/', InviteMembersPage],
  ['/accept-transfer/', AcceptTransferPage],
  ['/organizations/:org/alerts/rules/', AlertRulesPage],
  ['/organizations/:org/alerts/metric-rules/', MetricAlertsPage],
  ['/settings/:org/', ProjectsPage],
  ['/settings/:org/projects/', ProjectsPage],
  ['/settings/:org/projects/:project/', ProjectSettingsPage],
  ['/settings/:org/projects/:project/keys/', ProjectKeysPage],
  ['/settings/:org/projects/:project/hooks/', ServiceHooksPage],
  ['/settings/:org/projects/:project/filters/data-filters/', InboundFiltersPage],
  ['/settings/:org/projects/:project/ownership/', OwnershipRulesPage],
  ['/settings/:org/projects/:project/security-and-privacy/', ProjectSecurityAndPrivacyPage],
  ['/settings/:org/projects/:project/hooks/new/', NewServiceHookPage],
  ['/settings/:org/projects/:project/hooks/:hookId/', ServiceHookPage],
  ['/settings/:org/members/', MembersPage],
  ['/settings/:org/teams/', TeamsPage],
  ['/settings/:org/teams/:team/', TeamPage],
  ['/settings/:org/auth/', AuthProviderPage],
  ['/settings/:org/rate-limits/', RateLimitsPage],
  ['/settings/:org/security-and-privacy/', OrganizationSecurityAndPrivacyPage],
  ['/settings/:org/developer-settings/', DeveloperSettingsPage],
  ['/settings/:org/developer-settings/new-internal/', (props) => <NewIntegrationPage {...props} internal />],
  ['/settings/:org/developer-settings/new-public/', (props) => <NewIntegrationPage {...props} internal={false} />],
  ['/settings/:org/developer-settings/:app/', SentryAppPage],
  ['/settings/:org/developer-settings/:app/dashboard/', SentryAppRequestsPage],
  ['/settings/:org/integrations/', IntegrationsPage],
  ['/organizations/:org/projects/', ProjectsPage],
  ['/organizations/:org/projects/new/', NewProjectPage],
  ['/organizations/:org/projects/:project/', ProjectPage],
  ['/manage/', InstanceAdminPage],
  ['/manage/organizations/', InstanceAdminPage],
  ['/organizations/:org/issues/', IssuesPage],
  ['/organizations/:org/issues/:issueId/', IssuePage],
  ['/organizations/:org/issues/:issueId/events/', (props) => <IssuePage {...props} tab="events" />],
  ['/organizations/:org/issues/:issueId/events/:eventId/', IssuePage],
  ['/organizations/:org/issues/:issueId/merged/', (props) => <IssuePage {...props} tab="merged" />],
  ['/organizations/:org/issues/:issueId/activity/', (props) => <IssuePage {...props} tab="activity" />],
  ['/organizations/:org/releases/', ReleasesPage],
  ['/organizations/:org/releases/:version/', ReleasePage],
  ['/organizations/:org/crons/', CronsPage],
  ['/organizations/:org/crons/:project/:monitor/', CronMonitorPage],
  ['/organizations/:org/stats/', UsagePage],
];

type NavLink = [href: string, label: string];

/** The organization's settings and the account's pages: behind one Settings menu on a wide screen. */
function settingsLinks(slug: string | undefined, isSuperuser: boolean): NavLink[] {
  return [
    ...(slug
      ? ([
          [`/settings/${slug}/members/`, 'Members'],
          [`/settings/${slug}/teams/`, 'Teams'],
          [`/settings/${slug}/auth/`, 'Auth & SCIM'],
          [`/settings/${slug}/rate-limits/`, 'Rate limits'],
          [`/settings/${slug}/security-and-privacy/`, 'Security & Privacy'],
          [`/settings/${slug}/developer-settings/`, 'Developer settings'],
          [`/settings/${slug}/integrations/`, 'Integrations'],
        ] as NavLink[])
      : []),
    ['/settings/account/api/auth-tokens/', 'API tokens'],
    ['/settings/account/security/', 'Account security'],
    ...(isSuperuser ? ([['/manage/organizations/', 'Admin']] as NavLink[]) : []),
  ];
}

/**
 * The top bar. On a wide screen it is one line: the daily pages, a Settings menu for the rest, the
 * account; on a narrow one everything folds behind the menu button, in one column.
 */
function Navigation(props: { session: Session; path: string; onSignOut: () => void }) {
  const org = /^\/(?:settings|organizations)\/([^/]+)/.exec(props.path)?.[1];
  const slug = org && org !== 'account' ? org : props.session.organizations[0]?.slug;
  const [open, setOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // A narrow screen shows the links behind the menu button; choosing one closes it.
  useEffect(() => {
    setOpen(false);
    setSettingsOpen(false);
  }, [props.path]);
  const links: NavLink[] = slug
    ? [
        [`/organizations/${slug}/issues/`, 'Issues'],
        [`/organizations/${slug}/releases/`, 'Releases'],
        [`/organizations/${slug}/crons/`, 'Crons'],
        [`/settings/${slug}/projects/`, 'Projects'],
        [`/organizations/${slug}/alerts/rules/`, 'Alerts'],
        [`/organizations/${slug}/stats/`, 'Stats'],
      ]
    : [];
  const settings = settingsLinks(slug, props.session.user.isSuperuser);
  const current = (href: string) =>
    props.path.startsWith(href) || (href.endsWith('/projects/') && props.path.startsWith(href.replace('/settings/', '/organizations/')));
  const item = ([href, label]: NavLink) => (
    <li key={href}>
      <Link href={href} aria-current={current(href) ? 'page' : undefined}>
        {label}
      </Link>
    </li>
  );
  return (
    <header class="topbar">
      <Link href="/" class="brand">
        <img src="/favicon.svg" alt="" width={22} height={22} />
        Faultline
      </Link>
      <button type="button" class="menu-button" aria-expanded={open} aria-controls="main-menu" onClick={() => setOpen(!open)}>
        Menu
      </button>
      <div id="main-menu" class={open ? 'topbar-menu open' : 'topbar-menu'}>
        <nav aria-label="Main">
          <ul>
            {links.map(item)}
            <li
              class="nav-more"
              onKeyDown={(event) => {
                if (event.key === 'Escape' && settingsOpen) {
                  setSettingsOpen(false);
                  (event.currentTarget as HTMLElement).querySelector('button')?.focus();
                }
              }}
              onFocusOut={(event) => {
                if (!(event.currentTarget as HTMLElement).contains(event.relatedTarget as Node | null)) setSettingsOpen(false);
              }}
            >
              <button
                type="button"
                class={settings.some(([href]) => current(href)) ? 'nav-more-button current' : 'nav-more-button'}
                aria-expanded={settingsOpen}
                aria-controls="settings-menu"
                onClick={() => setSettingsOpen(!settingsOpen)}
              >
                Settings
                <span class="nav-more-arrow" aria-hidden="true">
                  ▾
                </span>
              </button>
              <ul id="settings-menu" class={settingsOpen ? 'nav-submenu open' : 'nav-submenu'}>
                {settings.map(item)}
              </ul>
            </li>
          </ul>
        </nav>
        <div class="account">
          <Link href="/settings/account/notifications/" class="account-email">
            {props.session.user.email}
          </Link>
          <button type="button" class="link-button" onClick={props.onSignOut}>
            Sign out
          </button>
        </div>
      </div>
    </header>
  );
}

async function loadSession(): Promise<Session | null> {
  try {
    const { body } = await api<{ user: Session['user'] | null; csrfToken?: string }>('GET', '/api/0/auth/');
    if (!body.user) return null;
    setCsrfToken(body.csrfToken);
    const { body: organizations } = await api<Session['organizations']>('GET', '/api/0/organizations/');
    return { user: body.user, organizations };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

function App() {
  const path = usePath();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>();

  const refresh = () => loadSession().then(setSession, setFailure);
  useEffect(() => {
    whenUnauthenticated(() => setSession(null));
    void refresh();
  }, []);

  // A message the previous page left (joining an organization), shown once.
  const [notice] = useState(takeNotice);
  const accepting = path.startsWith('/accept/');
  useEffect(() => {
    if (accepting) return;
    // The query goes along: a transfer link's data is in it.
    if (session === null && !path.startsWith('/auth/login')) navigate(`/auth/login/?next=${encodeURIComponent(path + location.search)}`, { replace: true });
    if (session && (path === '/' || path.startsWith('/auth/login'))) {
      const next = new URLSearchParams(location.search).get('next');
      const home = session.organizations[0] ? `/organizations/${session.organizations[0].slug}/issues/` : '/settings/account/api/auth-tokens/';
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : home, { replace: true });
    }
  }, [session, path]);

  // After a navigation, keyboard and screen-reader users continue at the new page's content.
  const [firstPath] = useState(path);
  useEffect(() => {
    if (path !== firstPath) document.getElementById('main')?.focus({ preventScroll: true });
  }, [path]);

  if (failure) return <p class="error-note">The service could not be reached. Reload the page to try again.</p>;
  if (session === undefined) {
    return (
      <div class="shell">
        <header class="topbar">
          <span class="brand">Faultline</span>
        </header>
        <main class="page">
          <Skeleton rows={6} />
        </main>
      </div>
    );
  }
  // An invitation's page works signed in or not.
  if (accepting) return <AcceptInvitePage path={path} signedInAs={session?.user.email} />;
  if (session === null) return <SignInPage onSignedIn={refresh} notice={notice} />;

  const signOut = async () => {
    await api('DELETE', '/api/0/auth/').catch(() => undefined);
    setCsrfToken(undefined);
    setSession(null);
    navigate('/auth/login/', { replace: true });
  };
  const pageOrganization = /^\/(?:settings|organizations)\/([^/]+)/.exec(path)?.[1]?.replace(/^account$/, '');
  let page: preact.JSX.Element | null = null;
  for (const [pattern, Page] of ROUTES) {
    const params = match(pattern, path);
    if (params) {
      page = <Page key={path} params={params} session={session} />;
      break;
    }
  }
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <Navigation session={session} path={path} onSignOut={signOut} />
      <main class="page" id="main" tabIndex={-1}>
        {notice && path === firstPath && (
          <p class="shown-once" role="status">
            {notice}
          </p>
        )}
        {pageOrganization && <SpikeNotice org={pageOrganization} path={path} />}
        {page ?? (
          <>
            <h1>Page not found</h1>
            <p>
              There is nothing at <code>{path}</code>.
            </p>
          </>
        )}
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
