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
  provider: string;
  idpEntityId: string;
  ssoUrl: string;
  x509cert: string;
  scimEnabled: boolean;
  scimBaseUrl: string | null;
  scimToken?: string;
  serviceProvider: { entityId: string; acsUrl: string; metadataUrl: string };
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

const PROVIDER_FIELDS = ['idpEntityId', 'ssoUrl', 'x509cert', 'scimEnabled', 'metadataUrl', 'metadataXml'];
const PROVIDER_SOURCES = [
  ['metadataUrl', 'Metadata URL'],
  ['metadataXml', 'Metadata XML'],
  ['manual', 'Entity ID, SSO URL and certificate'],
] as const;

/** The SAML identity provider and the SCIM switch (the plan must allow them: business or enterprise). */
export function AuthProviderPage(props: { params: Record<string, string>; session: Session }) {
  const { org } = props.params;
  useTitle('Authentication');
  const path = `/api/0/organizations/${enc(org)}/auth-provider/`;
  const organization = useLoad(() => api<{ plan: string; require2FA: boolean }>('GET', `/api/0/organizations/${enc(org)}/`).then(({ body }) => body), [org]);
  // 204 (no body) when no provider is configured yet.
  const provider = useLoad(async () => (await api<AuthProvider | undefined>('GET', path)).body ?? null, [path]);
  const [form, setForm] = useState({ idpEntityId: '', ssoUrl: '', x509cert: '', metadataUrl: '', metadataXml: '' });
  const [source, setSource] = useState<string>('manual');
  const [error, setError] = useState<unknown>();
  const [scimToken, setScimToken] = useState<string>();
  const plan = organization.data?.plan;
  const planAllows = plan === 'business' || plan === 'enterprise';

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      // An update changes only the fields filled in; a new provider needs them all.
      const given =
        source === 'manual' ? { idpEntityId: form.idpEntityId, ssoUrl: form.ssoUrl, x509cert: form.x509cert } : { [source]: form[source as 'metadataUrl'] };
      const changes = provider.data ? Object.fromEntries(Object.entries(given).filter(([, value]) => value !== '')) : given;
      await api(provider.data ? 'PUT' : 'POST', path, { provider: 'saml2', ...changes }, PROVIDER_FIELDS);
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
      <Section title="SAML identity provider">
        {provider.loading && provider.data === undefined ? (
          <Skeleton rows={4} />
        ) : (
          <form onSubmit={save} noValidate>
            {current && (
              <p>
                Configured: <code>{current.idpEntityId}</code> → {current.ssoUrl}
              </p>
            )}
            <SelectField label="Configure from" name="source" value={source} options={PROVIDER_SOURCES} onChange={setSource} />
            {source === 'metadataUrl' ? (
              <Field
                label="Metadata URL"
                name="metadataUrl"
                type="url"
                value={form.metadataUrl}
                onInput={(value) => setForm({ ...form, metadataUrl: value })}
                error={fieldError('metadataUrl')}
                hint="Okta: the app's Metadata URL; Entra ID: App Federation Metadata Url. Read once, now."
              />
            ) : null}
            {source === 'metadataXml' ? (
              <TextArea
                label="Metadata XML"
                name="metadataXml"
                value={form.metadataXml}
                onInput={(value) => setForm({ ...form, metadataXml: value })}
                error={fieldError('metadataXml')}
                hint="The identity provider's metadata document (EntityDescriptor)."
                rows={8}
              />
            ) : null}
            {source === 'manual' ? (
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
            ) : null}
            {error instanceof ApiError && PROVIDER_FIELDS.some((field) => error.field(field)) ? null : <ErrorNote error={error} />}
            <button type="submit" class="primary" disabled={!planAllows}>
              {current ? 'Update provider' : 'Add provider'}
            </button>
          </form>
        )}
      </Section>
      {current && (
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
