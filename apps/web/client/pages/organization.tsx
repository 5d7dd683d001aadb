import { useState } from 'preact/hooks';
import { api, ApiError, enc, list } from '../api';
import { ErrorNote, Field, formatDate, Section, SelectField, ShownOnce, Skeleton, Status, TextArea, useLoad, useTitle } from '../components';
import type { Session } from '../main';
import { Link } from '../router';

interface Member {
  id: string;
  email: string;
  name: string;
  role?: string;
  orgRole?: string;
  dateCreated?: string;
  user: { id: string; isActive?: boolean } | null;
}

interface Team {
  id: string;
  slug: string;
  name: string;
  memberCount: number;
  dateCreated: string;
}

interface AuthProvider {
  provider: 'saml2' | 'oidc';
  idpEntityId?: string;
  ssoUrl?: string;
  x509cert?: string;
  issuer?: string;
  clientId?: string;
  clientSecretSet?: boolean;
  scopes?: string;
  /** OpenID Connect: the one callback to give the identity provider. */
  redirectUri?: string;
  scimEnabled: boolean;
  scimBaseUrl: string | null;
  scimToken?: string;
  serviceProvider?: { entityId: string; acsUrl: string; metadataUrl: string };
  ssoLoginUrl: string;
}

export function MembersPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Members');
  const [cursor, setCursor] = useState<string>();
  const members = useLoad(() => list<Member>(`/api/0/organizations/${enc(org)}/members/?per_page=50${cursor ? `&cursor=${enc(cursor)}` : ''}`), [org, cursor]);
  return (
    <>
      <h1>Members</h1>
      <Section title="Members">
        <ErrorNote error={members.error} />
        {members.loading && !members.data ? (
          <Skeleton rows={4} />
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {members.data?.items.map((member) => (
                <tr key={member.id}>
                  <td>{member.name || '—'}</td>
                  <td>{member.email}</td>
                  <td>{member.orgRole ?? member.role ?? '—'}</td>
                  <td>
                    <Status value={member.user?.isActive === false ? 'inactive' : 'active'} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {members.data?.nextCursor && (
          <button type="button" onClick={() => setCursor(members.data?.nextCursor)}>
            Next page
          </button>
        )}
        <p class="hint">Members join through the CLI, the API or SCIM provisioning from your identity provider.</p>
      </Section>
    </>
  );
}

export function TeamsPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Teams');
  const teams = useLoad(() => api<Team[]>('GET', `/api/0/organizations/${enc(org)}/teams/`).then(({ body }) => body), [org]);
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>();
  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      await api('POST', `/api/0/organizations/${enc(org)}/teams/`, { name }, ['name', 'slug']);
      setName('');
      teams.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <>
      <h1>Teams</h1>
      <Section title="Teams">
        <ErrorNote error={teams.error} />
        {teams.loading && !teams.data ? (
          <Skeleton rows={3} />
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col" class="number">
                  Members
                </th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {teams.data?.map((team) => (
                <tr key={team.id}>
                  <td>
                    {team.name} <span class="muted">#{team.slug}</span>
                  </td>
                  <td class="number">{team.memberCount}</td>
                  <td>{formatDate(team.dateCreated)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title="Create a team">
        <form onSubmit={create} noValidate>
          <Field
            label="Team name"
            name="name"
            value={name}
            onInput={setName}
            error={error instanceof ApiError ? (error.field('name') ?? error.field('slug')) : undefined}
          />
          {error instanceof ApiError && (error.field('name') || error.field('slug')) ? null : <ErrorNote error={error} />}
          <button type="submit" class="primary">
            Create team
          </button>
        </form>
      </Section>
    </>
  );
}

const PROVIDER_FIELDS = ['idpEntityId', 'ssoUrl', 'x509cert', 'issuer', 'clientId', 'clientSecret', 'scopes', 'scimEnabled'];
const SAML_FIELDS = ['idpEntityId', 'ssoUrl', 'x509cert'] as const;
const OIDC_FIELDS = ['issuer', 'clientId', 'clientSecret', 'scopes'] as const;

/** The identity provider (SAML or OpenID Connect) and the SCIM switch (the plan must allow them: business or enterprise). */
export function AuthProviderPage(props: { params: Record<string, string>; session: Session }) {
  const { org } = props.params;
  useTitle('Authentication');
  const path = `/api/0/organizations/${enc(org)}/auth-provider/`;
  const organization = useLoad(() => api<{ plan: string; require2FA: boolean }>('GET', `/api/0/organizations/${enc(org)}/`).then(({ body }) => body), [org]);
  // 204 (no body) when no provider is configured yet.
  const provider = useLoad(async () => (await api<AuthProvider | undefined>('GET', path)).body ?? null, [path]);
  const [form, setForm] = useState({ idpEntityId: '', ssoUrl: '', x509cert: '', issuer: '', clientId: '', clientSecret: '', scopes: '' });
  const [chosen, setChosen] = useState<'saml2' | 'oidc'>();
  const [error, setError] = useState<unknown>();
  const [scimToken, setScimToken] = useState<string>();
  const plan = organization.data?.plan;
  const planAllows = plan === 'business' || plan === 'enterprise';

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      // Only the chosen protocol's fields filled in are sent: an update keeps the rest (the client secret too).
      const fields: readonly string[] = kind === 'oidc' ? OIDC_FIELDS : SAML_FIELDS;
      const changes = Object.fromEntries(Object.entries(form).filter(([field, value]) => fields.includes(field) && value !== ''));
      await api(provider.data ? 'PUT' : 'POST', path, { provider: kind, ...changes }, PROVIDER_FIELDS);
      setForm({ ...form, clientSecret: '' });
      provider.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const setScim = async (enabled: boolean) => {
    setError(undefined);
    try {
      const { body } = await api<AuthProvider>('PUT', path, { scimEnabled: enabled }, PROVIDER_FIELDS);
      setScimToken(body.scimToken);
      provider.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const setRequire2FA = async (required: boolean) => {
    setError(undefined);
    try {
      await api('PUT', `/api/0/organizations/${enc(org)}/`, { require2FA: required }, ['require2FA']);
      organization.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);
  const current = provider.data;
  const kind = chosen ?? current?.provider ?? 'saml2';
  return (
    <>
      <h1>Authentication</h1>
      <ErrorNote error={organization.error ?? provider.error} />
      {organization.data && !planAllows ? (
        <p class="notice" role="status">
          Single sign-on and SCIM need the business or enterprise plan; this organization is on the <strong>{plan}</strong> plan.{' '}
          {props.session.user.isSuperuser ? (
            <Link href={`/manage/organizations/#org-${enc(org)}`}>Change the plan</Link>
          ) : (
            'An instance administrator can change it.'
          )}
        </p>
      ) : null}
      {organization.data ? (
        <Section title="Two-factor authentication">
          <p>
            Members {organization.data.require2FA ? 'must' : 'need not'} sign in with a second factor (an authenticator app). Requiring it takes one of your
            own: <Link href="/settings/account/security/">set it up under Account security</Link>.
          </p>
          {fieldError('require2FA') ? (
            <p class="error-note" role="alert">
              {fieldError('require2FA')}
            </p>
          ) : null}
          <button type="button" onClick={() => setRequire2FA(!organization.data!.require2FA)}>
            {organization.data.require2FA ? 'Stop requiring two-factor authentication' : 'Require two-factor authentication'}
          </button>
        </Section>
      ) : null}
      <Section title="Identity provider">
        {provider.loading && provider.data === undefined ? (
          <Skeleton rows={4} />
        ) : (
          <form onSubmit={save} noValidate>
            {current && (
              <p>
                Configured:{' '}
                {current.provider === 'oidc' ? (
                  <>
                    OpenID Connect, issuer <code>{current.issuer}</code>, client <code>{current.clientId}</code>
                  </>
                ) : (
                  <>
                    SAML, <code>{current.idpEntityId}</code> → {current.ssoUrl}
                  </>
                )}
              </p>
            )}
            <SelectField
              label="Protocol"
              name="provider"
              value={kind}
              options={[
                ['saml2', 'SAML 2.0'],
                ['oidc', 'OpenID Connect'],
              ]}
              onChange={(value) => setChosen(value as 'saml2' | 'oidc')}
              hint={current && current.provider !== kind ? 'Switching protocol needs all of its settings.' : undefined}
            />
            {kind === 'oidc' ? (
              <>
                <Field
                  label="Issuer URL"
                  name="issuer"
                  type="url"
                  value={form.issuer}
                  onInput={(value) => setForm({ ...form, issuer: value })}
                  error={fieldError('issuer')}
                  hint="Discovered at {issuer}/.well-known/openid-configuration, e.g. https://accounts.google.com."
                />
                <Field
                  label="Client ID"
                  name="clientId"
                  value={form.clientId}
                  onInput={(value) => setForm({ ...form, clientId: value })}
                  error={fieldError('clientId')}
                />
                <Field
                  label="Client secret"
                  name="clientSecret"
                  type="password"
                  autoComplete="off"
                  value={form.clientSecret}
                  onInput={(value) => setForm({ ...form, clientSecret: value })}
                  error={fieldError('clientSecret')}
                  hint={current?.clientSecretSet ? 'A secret is stored (never shown); leave empty to keep it.' : undefined}
                />
                <Field
                  label="Scopes"
                  name="scopes"
                  value={form.scopes}
                  onInput={(value) => setForm({ ...form, scopes: value })}
                  error={fieldError('scopes')}
                  hint={`Space-separated; now ${current?.scopes ?? 'openid email profile'}.`}
                />
              </>
            ) : (
              <>
                <Field
                  label="IdP entity ID"
                  name="idpEntityId"
                  value={form.idpEntityId}
                  onInput={(value) => setForm({ ...form, idpEntityId: value })}
                  error={fieldError('idpEntityId')}
                />
                <Field
                  label="SSO URL"
                  name="ssoUrl"
                  type="url"
                  value={form.ssoUrl}
                  onInput={(value) => setForm({ ...form, ssoUrl: value })}
                  error={fieldError('ssoUrl')}
                />
                <TextArea
                  label="X.509 certificate"
                  name="x509cert"
                  value={form.x509cert}
                  onInput={(value) => setForm({ ...form, x509cert: value })}
                  error={fieldError('x509cert')}
                  hint="The identity provider's signing certificate: PEM (-----BEGIN CERTIFICATE----- …) or base64 DER."
                  rows={8}
                />
              </>
            )}
            {error instanceof ApiError && PROVIDER_FIELDS.some((field) => error.field(field)) ? null : <ErrorNote error={error} />}
            <button type="submit" class="primary" disabled={!planAllows}>
              {current ? 'Update provider' : 'Add provider'}
            </button>
          </form>
        )}
      </Section>
      {current?.provider === 'oidc' && (
        <Section title="Redirect URI">
          <p>
            Give this redirect URI to the identity provider (Google: Authorized redirect URIs; Entra ID and Keycloak: Redirect URIs; Okta: Sign-in redirect
            URIs).
          </p>
          <dl>
            <dt>Redirect URI</dt>
            <dd>
              <code>{current.redirectUri}</code>
            </dd>
            <dt>Sign-in page</dt>
            <dd>
              <code>{current.ssoLoginUrl}</code>
            </dd>
          </dl>
          <p>
            <a href={current.ssoLoginUrl} target="_blank" rel="noopener">
              Test sign-in
            </a>{' '}
            (opens the organization's sign-in page; once a provider is set, members' sessions need its SSO to reach this organization).
          </p>
        </Section>
      )}
      {current?.serviceProvider && (
        <Section title="Service provider">
          <p>Give these to the identity provider (Okta: Single sign-on URL and Audience URI; Entra ID: Reply URL and Identifier).</p>
          <dl>
            <dt>ACS URL (HTTP-POST)</dt>
            <dd>
              <code>{current.serviceProvider.acsUrl}</code>
            </dd>
            <dt>Entity ID (audience)</dt>
            <dd>
              <code>{current.serviceProvider.entityId}</code>
            </dd>
            <dt>Metadata URL</dt>
            <dd>
              <code>{current.serviceProvider.metadataUrl}</code>
            </dd>
            <dt>Sign-in page</dt>
            <dd>
              <code>{current.ssoLoginUrl}</code>
            </dd>
          </dl>
          <p>
            <a href={current.ssoLoginUrl} target="_blank" rel="noopener">
              Test sign-in
            </a>{' '}
            (opens the organization's sign-in page; once a provider is set, members' sessions need its SSO to reach this organization).
          </p>
        </Section>
      )}
      {current && (
        <Section title="SCIM provisioning">
          <p>
            SCIM is <Status value={current.scimEnabled ? 'enabled' : 'disabled'} />.
            {current.scimBaseUrl && (
              <>
                {' '}
                Base URL: <code>{current.scimBaseUrl}</code>
              </>
            )}
          </p>
          {scimToken && <ShownOnce label="SCIM token" value={scimToken} />}
          <button type="button" onClick={() => setScim(!current.scimEnabled)}>
            {current.scimEnabled ? 'Turn SCIM off (revokes the token)' : 'Turn SCIM on'}
          </button>
        </Section>
      )}
    </>
  );
}
