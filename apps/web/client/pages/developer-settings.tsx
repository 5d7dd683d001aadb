import { useState } from 'preact/hooks';
import { api, ApiError, enc } from '../api';
import {
  Checkboxes,
  ErrorNote,
  Field,
  formatDate,
  NeedsScope,
  Section,
  showsControl,
  ShownOnce,
  Skeleton,
  Status,
  useAccess,
  useLoad,
  useTitle,
} from '../components';
import { Link, navigate } from '../router';

/** Webhook resources an app subscribes to (Sentry's integration platform). */
const RESOURCES = ['issue', 'error', 'comment'] as const;
const APP_SCOPES = [
  'project:read',
  'project:write',
  'project:admin',
  'event:read',
  'event:write',
  'event:admin',
  'team:read',
  'team:write',
  'member:read',
  'member:write',
  'org:read',
  'org:write',
  'org:integrations',
  'alerts:read',
  'alerts:write',
];

interface SentryApp {
  uuid: string;
  slug: string;
  name: string;
  status: string;
  events: string[];
  scopes: string[];
  webhookUrl: string | null;
  redirectUrl: string | null;
  isAlertable: boolean;
  verifyInstall: boolean;
  clientId?: string;
  clientSecret?: string | null;
  owner?: { slug: string };
}

interface Installation {
  uuid: string;
  status: string;
  app: { uuid: string; slug: string };
  organization: { slug: string };
}

interface AppToken {
  id: string;
  /** Only in the answer that created it; lists carry the last characters. */
  token?: string;
  tokenLastCharacters?: string;
  dateCreated: string;
  scopes?: string[];
}

interface AppRequest {
  webhookUrl: string;
  eventType: string;
  date: string;
  responseCode: number;
  organization?: { slug: string };
}

const settings = (org: string) => `/settings/${enc(org)}/developer-settings/`;

/** The integration platform's endpoints answer 404 on a server without it: say so instead of failing. */
function isPlatformMissing(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

function PlatformMissing() {
  return (
    <p class="notice" role="status">
      The integration platform is not available on this server.
    </p>
  );
}

export function DeveloperSettingsPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Developer settings');
  const access = useAccess(org);
  const creates = showsControl(access, 'org:write');
  const apps = useLoad(() => api<SentryApp[]>('GET', `/api/0/organizations/${enc(org)}/sentry-apps/`).then(({ body }) => body), [org]);
  const table = (items: SentryApp[], empty: string) =>
    items.length ? (
      <ul class="plain-list">
        {items.map((app) => (
          <li key={app.uuid}>
            <Link href={`${settings(org)}${enc(app.slug)}/`}>{app.name}</Link> <Status value={app.status} />{' '}
            <span class="muted">{app.events.join(', ') || 'no webhooks'}</span>
          </li>
        ))}
      </ul>
    ) : (
      <p class="empty">{empty}</p>
    );
  if (isPlatformMissing(apps.error)) return <PlatformMissing />;
  return (
    <>
      <h1>Developer settings</h1>
      <ErrorNote error={apps.error} />
      <Section
        title="Internal integrations"
        actions={
          creates && (
            <Link href={`${settings(org)}new-internal/`} class="button primary">
              New internal integration
            </Link>
          )
        }
      >
        {apps.data ? (
          table(
            apps.data.filter((app) => app.status === 'internal'),
            'No internal integrations yet.',
          )
        ) : (
          <Skeleton rows={2} />
        )}
      </Section>
      <Section
        title="Public integrations"
        actions={
          creates && (
            <Link href={`${settings(org)}new-public/`} class="button">
              New public integration
            </Link>
          )
        }
      >
        {apps.data ? (
          table(
            apps.data.filter((app) => app.status !== 'internal'),
            'No public integrations yet.',
          )
        ) : (
          <Skeleton rows={2} />
        )}
      </Section>
      <NeedsScope access={access} scope="org:write" what="create or change integrations" />
    </>
  );
}

const APP_FIELDS = ['name', 'webhookUrl', 'redirectUrl', 'events', 'scopes', 'isAlertable', 'verifyInstall'];

interface AppFields {
  name: string;
  webhookUrl: string;
  redirectUrl: string;
  events: string[];
  scopes: string[];
  isAlertable: boolean;
  verifyInstall: boolean;
}

/** The fields of an integration, for creating one and for changing it later. */
function AppForm(props: { internal: boolean; initial: AppFields; submitLabel: string; onSubmit: (fields: AppFields) => Promise<void> }) {
  const [fields, setFields] = useState(props.initial);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const set = (changes: Partial<AppFields>) => setFields({ ...fields, ...changes });
  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await props.onSubmit(fields);
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);
  if (isPlatformMissing(error)) return <PlatformMissing />;
  return (
    <form onSubmit={save} noValidate>
      <Section title="Details">
        <Field label="Name" name="name" value={fields.name} onInput={(name) => set({ name })} error={fieldError('name')} required />
        {!props.internal && (
          <Field
            label="Redirect URL"
            name="redirectUrl"
            type="url"
            value={fields.redirectUrl}
            onInput={(redirectUrl) => set({ redirectUrl })}
            error={fieldError('redirectUrl')}
          />
        )}
      </Section>
      <Section title="Webhooks">
        <Field
          label="Webhook URL"
          name="webhookUrl"
          type="url"
          value={fields.webhookUrl}
          onInput={(webhookUrl) => set({ webhookUrl })}
          error={fieldError('webhookUrl')}
        />
        <label class="choice">
          <input
            type="checkbox"
            name="isAlertable"
            checked={fields.isAlertable}
            onChange={(event) => set({ isAlertable: (event.currentTarget as HTMLInputElement).checked })}
          />{' '}
          Alert rule action
        </label>
        {!props.internal && (
          <label class="choice">
            <input
              type="checkbox"
              name="verifyInstall"
              checked={fields.verifyInstall}
              onChange={(event) => set({ verifyInstall: (event.currentTarget as HTMLInputElement).checked })}
            />{' '}
            Verify installations
          </label>
        )}
        <Checkboxes
          legend="Resource subscriptions"
          name="events"
          options={RESOURCES}
          selected={fields.events}
          onChange={(events) => set({ events })}
          error={fieldError('events')}
        />
      </Section>
      <Section title="Permissions">
        <Checkboxes
          legend="Scopes"
          name="scopes"
          options={APP_SCOPES}
          selected={fields.scopes}
          onChange={(scopes) => set({ scopes })}
          error={fieldError('scopes')}
        />
      </Section>
      {error instanceof ApiError && APP_FIELDS.some((field) => error.field(field)) ? null : <ErrorNote error={error} />}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {props.submitLabel}
        </button>
        {saved && (
          <span role="status" class="saved">
            Saved
          </span>
        )}
      </div>
    </form>
  );
}

/** What the API takes from the form: empty URLs are none. */
function appBody(fields: AppFields, internal: boolean) {
  return {
    name: fields.name,
    webhookUrl: fields.webhookUrl || null,
    ...(internal ? {} : { redirectUrl: fields.redirectUrl || null, verifyInstall: fields.verifyInstall }),
    events: fields.events,
    scopes: fields.scopes,
    isAlertable: fields.isAlertable,
  };
}

export function NewIntegrationPage(props: { params: Record<string, string>; internal: boolean }) {
  const { org } = props.params;
  const kind = props.internal ? 'internal' : 'public';
  useTitle(`New ${kind} integration`);
  const create = async (fields: AppFields) => {
    const { body } = await api<SentryApp>(
      'POST',
      '/api/0/sentry-apps/',
      { ...appBody(fields, props.internal), organization: org, isInternal: props.internal },
      APP_FIELDS,
    );
    navigate(`${settings(org)}${enc(body.slug)}/`);
  };
  return (
    <>
      <p>
        <Link href={settings(org)}>← Developer settings</Link>
      </p>
      <h1>New {kind} integration</h1>
      <AppForm
        internal={props.internal}
        initial={{ name: '', webhookUrl: '', redirectUrl: '', events: [], scopes: ['project:read', 'event:read'], isAlertable: false, verifyInstall: false }}
        submitLabel="Save integration"
        onSubmit={create}
      />
    </>
  );
}

export function SentryAppPage(props: { params: Record<string, string> }) {
  const { org, app: slug } = props.params;
  const path = `/api/0/sentry-apps/${enc(slug)}/`;
  const app = useLoad(() => api<SentryApp>('GET', path).then(({ body }) => body), [path]);
  const access = useAccess(org);
  const canWrite = access.has('org:write');
  const isInternal = app.data?.status === 'internal';
  // Listing an internal integration's tokens takes org:write, as changing them does.
  const tokens = useLoad(
    () => (isInternal && canWrite ? api<AppToken[]>('GET', `${path}api-tokens/`).then(({ body }) => body) : Promise.resolve([])),
    [path, isInternal, canWrite],
  );
  const [showSecret, setShowSecret] = useState(false);
  const [newToken, setNewToken] = useState<string>();
  const [actionError, setActionError] = useState<unknown>();
  useTitle(app.data?.name ?? 'Integration');

  const createToken = async () => {
    setActionError(undefined);
    try {
      const { body } = await api<AppToken>('POST', `${path}api-tokens/`);
      setNewToken(body.token);
      tokens.reload();
    } catch (failure) {
      setActionError(failure);
    }
  };
  const revokeToken = async (token: AppToken) => {
    if (!confirm('Revoke this token? Programs using it stop working.')) return;
    setActionError(undefined);
    try {
      await api('DELETE', `${path}api-tokens/${enc(token.id)}/`);
      tokens.reload();
    } catch (failure) {
      setActionError(failure);
    }
  };
  const remove = async () => {
    if (!confirm(`Delete ${app.data?.name}? Its installations and tokens stop working.`)) return;
    try {
      await api('DELETE', path);
      navigate(settings(org));
    } catch (failure) {
      setActionError(failure);
    }
  };
  if (isPlatformMissing(app.error)) return <PlatformMissing />;
  const data = app.data;
  return (
    <>
      <p>
        <Link href={settings(org)}>← Developer settings</Link>
      </p>
      <h1>{data?.name ?? 'Integration'}</h1>
      <ErrorNote error={app.error ?? actionError} />
      <Section
        title="Credentials"
        actions={
          <Link href={`${settings(org)}${enc(slug)}/dashboard/`} class="button">
            Request log
          </Link>
        }
      >
        {!data ? (
          <Skeleton rows={4} />
        ) : (
          <dl class="details">
            <dt>Status</dt>
            <dd>
              <Status value={data.status} />
            </dd>
            <dt>Webhook URL</dt>
            <dd>{data.webhookUrl ?? '—'}</dd>
            <dt>Resources</dt>
            <dd>{data.events.join(', ') || '—'}</dd>
            <dt>Scopes</dt>
            <dd class="scopes">{data.scopes.join(', ') || '—'}</dd>
            <dt>Client ID</dt>
            <dd>
              <code>{data.clientId ?? '—'}</code>
            </dd>
            <dt>Client secret</dt>
            <dd>
              {showSecret ? <code class="secret">{data.clientSecret ?? '(hidden)'}</code> : <code>••••••••</code>}{' '}
              <button type="button" class="link-button" onClick={() => setShowSecret(!showSecret)} aria-expanded={showSecret}>
                {showSecret ? 'Hide secret' : 'Show secret'}
              </button>
            </dd>
          </dl>
        )}
      </Section>
      {isInternal && canWrite && (
        <Section
          title="Tokens"
          actions={
            <button type="button" onClick={createToken}>
              New token
            </button>
          }
        >
          {newToken && <ShownOnce label="New token" value={newToken} />}
          <ErrorNote error={tokens.error} />
          {tokens.data ? (
            tokens.data.length ? (
              <ul class="plain-list">
                {tokens.data.map((token) => (
                  <li key={token.id}>
                    <code>{token.token ?? `…${token.tokenLastCharacters ?? ''}`}</code> <span class="muted">created {formatDate(token.dateCreated)}</span>{' '}
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Revoke the token ending in ${token.tokenLastCharacters ?? token.id}`}
                      onClick={() => revokeToken(token)}
                    >
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p class="empty">No tokens.</p>
            )
          ) : (
            <Skeleton rows={2} />
          )}
        </Section>
      )}
      {data && showsControl(access, 'org:write') && (
        <>
          <h2 class="section-title">Edit</h2>
          <AppForm
            key={data.uuid}
            internal={isInternal}
            initial={{
              name: data.name,
              webhookUrl: data.webhookUrl ?? '',
              redirectUrl: data.redirectUrl ?? '',
              events: data.events,
              scopes: data.scopes,
              isAlertable: data.isAlertable,
              verifyInstall: data.verifyInstall,
            }}
            submitLabel="Save changes"
            onSubmit={async (fields) => {
              const { body } = await api<SentryApp>('PUT', path, appBody(fields, isInternal), APP_FIELDS);
              if (body.slug !== slug) navigate(`${settings(org)}${enc(body.slug)}/`, { replace: true });
              else app.reload();
            }}
          />
        </>
      )}
      {showsControl(access, 'org:admin') && (
        <div class="actions">
          <button type="button" class="danger" onClick={remove} disabled={!data || !access.has('org:admin')}>
            Delete integration
          </button>
        </div>
      )}
      <NeedsScope access={access} scope="org:write" what="change this integration or its tokens" />
    </>
  );
}

export function SentryAppRequestsPage(props: { params: Record<string, string> }) {
  const { org, app: slug } = props.params;
  useTitle('Request log');
  const [errorsOnly, setErrorsOnly] = useState(false);
  const requests = useLoad(
    () => api<AppRequest[]>('GET', `/api/0/sentry-apps/${enc(slug)}/requests/${errorsOnly ? '?errorsOnly=true' : ''}`).then(({ body }) => body),
    [slug, errorsOnly],
  );
  if (isPlatformMissing(requests.error)) return <PlatformMissing />;
  return (
    <>
      <p>
        <Link href={`${settings(org)}${enc(slug)}/`}>← {slug}</Link>
      </p>
      <h1>Request log</h1>
      <label class="choice">
        <input type="checkbox" checked={errorsOnly} onChange={(event) => setErrorsOnly((event.currentTarget as HTMLInputElement).checked)} /> Errors only
      </label>
      <Section title="Webhook requests">
        <ErrorNote error={requests.error} />
        {!requests.data ? (
          <Skeleton rows={4} />
        ) : requests.data.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Response</th>
                <th scope="col">Webhook URL</th>
              </tr>
            </thead>
            <tbody>
              {requests.data.map((request, index) => (
                <tr key={`${request.date}-${index}`}>
                  <td>{formatDate(request.date)}</td>
                  <td>{request.eventType}</td>
                  <td>{request.responseCode === 0 ? 'timed out' : request.responseCode}</td>
                  <td>{request.webhookUrl}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="empty">No requests yet.</p>
        )}
      </Section>
    </>
  );
}

/** Installations in this organization, and the apps that can be installed. */
export function IntegrationsPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Integrations');
  const installations = useLoad(() => api<Installation[]>('GET', `/api/0/organizations/${enc(org)}/sentry-app-installations/`).then(({ body }) => body), [org]);
  const apps = useLoad(() => api<SentryApp[]>('GET', `/api/0/organizations/${enc(org)}/sentry-apps/`).then(({ body }) => body), [org]);
  const [actionError, setActionError] = useState<unknown>();
  const act = async (work: () => Promise<unknown>) => {
    setActionError(undefined);
    try {
      await work();
      installations.reload();
    } catch (failure) {
      setActionError(failure);
    }
  };
  if (isPlatformMissing(installations.error)) return <PlatformMissing />;
  const installed = new Set(installations.data?.map((installation) => installation.app.slug));
  const names = new Map(apps.data?.map((app) => [app.slug, app.name]));
  const available = apps.data?.filter((app) => !installed.has(app.slug)) ?? [];
  return (
    <>
      <h1>Integrations</h1>
      <ErrorNote error={installations.error ?? apps.error ?? actionError} />
      <Section title="Installed">
        {!installations.data ? (
          <Skeleton rows={2} />
        ) : installations.data.length ? (
          <table class="installations">
            <thead>
              <tr>
                <th scope="col">Integration</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {installations.data.map((installation) => (
                <tr key={installation.uuid}>
                  <td>{names.get(installation.app.slug) ?? installation.app.slug}</td>
                  <td>
                    <Status value={installation.status} />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Uninstall ${installation.app.slug}`}
                      onClick={() => act(() => api('DELETE', `/api/0/sentry-app-installations/${enc(installation.uuid)}/`))}
                    >
                      Uninstall
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="empty">Nothing is installed.</p>
        )}
      </Section>
      <Section title="Available to install">
        {!apps.data || !installations.data ? (
          <Skeleton rows={2} />
        ) : available.length ? (
          <ul class="plain-list">
            {available.map((app) => (
              <li key={app.slug}>
                {app.name} <Status value={app.status} />{' '}
                <button
                  type="button"
                  aria-label={`Install ${app.name}`}
                  onClick={() => act(() => api('POST', `/api/0/organizations/${enc(org)}/sentry-app-installations/`, { slug: app.slug }))}
                >
                  Install
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p class="empty">
            {apps.data.length ? 'Every integration of this organization is installed.' : 'Nothing to install yet.'} Integrations you build in{' '}
            <Link href={settings(org)}>Developer settings</Link> appear here to install.
          </p>
        )}
      </Section>
    </>
  );
}
