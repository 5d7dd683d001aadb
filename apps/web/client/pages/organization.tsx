import { useState } from 'preact/hooks';
import { api, ApiError, enc, list } from '../api';
import {
  type Access,
  CopyableCode,
  ErrorNote,
  Field,
  formatDate,
  NeedsScope,
  showsControl,
  Section,
  SelectField,
  ShownOnce,
  Skeleton,
  Status,
  TextArea,
  useAccess,
  useLoad,
  useTitle,
} from '../components';
import type { Session } from '../main';
import { Link, navigate } from '../router';

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

/** Sentry's role order: a member manages only the roles up to their own (a manager never an owner). */
const ROLES: Array<[string, string]> = [
  ['billing', 'Billing'],
  ['member', 'Member'],
  ['admin', 'Admin'],
  ['manager', 'Manager'],
  ['owner', 'Owner'],
];
const rank = (role: string | null | undefined) => ROLES.findIndex(([id]) => id === role);

export interface Invite {
  id: string;
  email: string;
  orgRole: string;
  expired: boolean;
  teams: string[];
  invite_link?: string;
}

/** The link an invitation opens, for the inviter to pass on themselves (no mail server needed). */
export function InviteLink(props: { invite: Invite }) {
  if (!props.invite.invite_link) return null;
  return (
    <div class="shown-once" role="status">
      <p>
        Invitation link for <strong>{props.invite.email}</strong> (valid for 7 days; sending again makes a new one):
      </p>
      <CopyableCode value={props.invite.invite_link} label={`Copy the invitation link of ${props.invite.email}`} />
    </div>
  );
}

/** Pending invitations: send again (a new link, shown here) or revoke; only for those who may invite. */
export function PendingInvites(props: { org: string; access: Access; reloadKey?: unknown }) {
  const { org, access } = props;
  const pending = useLoad(
    () => api<Invite[]>('GET', `/api/0/organizations/${enc(org)}/members/?per_page=100&query=${enc('isInvited:true')}`).then(({ body }) => body),
    [org, props.reloadKey],
  );
  const [error, setError] = useState<unknown>();
  const [sent, setSent] = useState<Invite>();
  const [notice, setNotice] = useState<string>();
  const canInvite = access.has('member:write');
  const resend = async (invite: Invite) => {
    setError(undefined);
    setNotice(undefined);
    try {
      const { body } = await api<Invite>('PUT', `/api/0/organizations/${enc(org)}/members/${enc(invite.id)}/`, { reinvite: true });
      pending.reload();
      setSent(body);
      setNotice(`Invitation sent again to ${body.email}; the earlier link no longer works.`);
    } catch (failure) {
      setError(failure);
    }
  };
  const revoke = async (invite: Invite) => {
    if (!confirm(`Revoke the invitation of ${invite.email}? Its link stops working.`)) return;
    setError(undefined);
    setSent(undefined);
    try {
      await api('DELETE', `/api/0/organizations/${enc(org)}/members/${enc(invite.id)}/`);
      pending.reload();
      setNotice(`Invitation of ${invite.email} revoked.`);
    } catch (failure) {
      setError(failure);
    }
  };
  const invites = pending.data ?? [];
  return (
    <Section title="Pending invitations">
      <ErrorNote error={pending.error ?? error} />
      {notice && <p role="status">{notice}</p>}
      {sent && <InviteLink invite={sent} />}
      {pending.loading && !pending.data ? (
        <Skeleton rows={2} />
      ) : invites.length === 0 ? (
        <p class="muted">No pending invitations.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              {canInvite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <tr key={invite.id}>
                <td>{invite.email}</td>
                <td>{invite.orgRole}</td>
                <td>
                  <Status value={invite.expired ? 'expired' : 'pending'} />
                </td>
                {canInvite && (
                  <td>
                    <button type="button" onClick={() => void resend(invite)}>
                      Send again
                    </button>{' '}
                    <button type="button" class="danger" onClick={() => void revoke(invite)}>
                      Revoke
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NeedsScope access={access} scope="member:write" what="invite members or change invitations" />
    </Section>
  );
}

function MemberRow(props: {
  org: string;
  member: Member;
  access: Access;
  self: boolean;
  onChanged: (notice: string) => void;
  onError: (error: unknown) => void;
}) {
  const { org, member, access } = props;
  const role = member.orgRole ?? member.role ?? 'member';
  // Sentry's rule: change or remove only members whose role is within your own.
  const manageable = access.has('member:admin') && rank(role) <= rank(access.role);
  const path = `/api/0/organizations/${enc(org)}/members/${enc(member.id)}/`;
  const changeRole = async (next: string) => {
    try {
      await api('PUT', path, { orgRole: next }, ['orgRole']);
      props.onChanged(`${member.email} is now ${next}.`);
    } catch (failure) {
      props.onError(failure);
    }
  };
  const remove = async () => {
    if (!confirm(`Remove ${member.email} from the organization? Their account stays; they lose access here.`)) return;
    try {
      await api('DELETE', path);
      props.onChanged(`${member.email} was removed.`);
    } catch (failure) {
      props.onError(failure);
    }
  };
  return (
    <tr>
      <td>
        {member.name || '—'}
        {props.self && <span class="muted"> (you)</span>}
      </td>
      <td>{member.email}</td>
      <td>
        {manageable ? (
          <select aria-label={`Role of ${member.email}`} value={role} onChange={(event) => void changeRole((event.target as HTMLSelectElement).value)}>
            {ROLES.filter(([id]) => rank(id) <= rank(access.role)).map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        ) : (
          role
        )}
      </td>
      <td>
        <Status value={member.user?.isActive === false ? 'inactive' : 'active'} />
      </td>
      {access.has('member:admin') && (
        <td>
          {manageable ? (
            <button type="button" class="danger" onClick={() => void remove()}>
              Remove
            </button>
          ) : (
            <span class="muted">Beyond your role</span>
          )}
        </td>
      )}
    </tr>
  );
}

export function MembersPage(props: { params: Record<string, string>; session: Session }) {
  const { org } = props.params;
  useTitle('Members');
  const access = useAccess(org);
  const [cursor, setCursor] = useState<string>();
  const members = useLoad(() => list<Member>(`/api/0/organizations/${enc(org)}/members/?per_page=50${cursor ? `&cursor=${enc(cursor)}` : ''}`), [org, cursor]);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();
  const changed = (text: string) => {
    setError(undefined);
    setNotice(text);
    members.reload();
  };
  return (
    <>
      <div class="page-heading">
        <h1>Members</h1>
        {access.has('member:write') && (
          <Link href={`/settings/${enc(org)}/members/invite/`} class="button primary">
            Invite members
          </Link>
        )}
      </div>
      <Section title="Members">
        <ErrorNote error={members.error ?? error} />
        {notice && <p role="status">{notice}</p>}
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
                {access.has('member:admin') && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {members.data?.items.map((member) => (
                <MemberRow
                  key={member.id}
                  org={org}
                  member={member}
                  access={access}
                  self={member.user?.id === props.session.user.id}
                  onChanged={changed}
                  onError={(failure) => {
                    setNotice(undefined);
                    setError(failure);
                  }}
                />
              ))}
            </tbody>
          </table>
        )}
        {members.data?.nextCursor && (
          <button type="button" onClick={() => setCursor(members.data?.nextCursor)}>
            Next page
          </button>
        )}
        <NeedsScope access={access} scope="member:admin" what="change members' roles or remove members" />
      </Section>
      <PendingInvites org={org} access={access} />
    </>
  );
}

export function TeamsPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Teams');
  const access = useAccess(org);
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
                    <Link href={`/settings/${enc(org)}/teams/${enc(team.slug)}/`}>{team.name}</Link> <span class="muted">#{team.slug}</span>
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
          <button type="submit" class="primary" disabled={!access.has('team:write')}>
            Create team
          </button>
          <NeedsScope access={access} scope="team:write" what="create teams" />
        </form>
      </Section>
    </>
  );
}

interface TeamProject {
  id: string;
  slug: string;
  name: string;
  teams: Array<{ slug: string }>;
}

/** One team: its members and projects (add, remove) and, for team admins, deleting it. */
export function TeamPage(props: { params: Record<string, string> }) {
  const { org, team: slug } = props.params;
  const access = useAccess(org);
  const teamPath = `/api/0/teams/${enc(org)}/${enc(slug)}/`;
  const data = useLoad(
    () =>
      Promise.all([
        api<Team>('GET', teamPath).then(({ body }) => body),
        api<Member[]>('GET', `${teamPath}members/?per_page=100`).then(({ body }) => body),
        api<Member[]>('GET', `/api/0/organizations/${enc(org)}/members/?per_page=100`).then(({ body }) => body),
        api<TeamProject[]>('GET', `/api/0/organizations/${enc(org)}/projects/?per_page=100`).then(({ body }) => body),
      ]),
    [teamPath],
  );
  useTitle(data.data?.[0].name ?? 'Team');
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const [newMember, setNewMember] = useState('');
  const [newProject, setNewProject] = useState('');
  const [team, members, everyone, projects] = data.data ?? [];
  const inTeam = new Set(members?.map((member) => member.id));
  const teamProjects = projects?.filter((project) => project.teams.some((t) => t.slug === slug)) ?? [];
  const otherProjects = projects?.filter((project) => !project.teams.some((t) => t.slug === slug)) ?? [];
  const run = async (method: string, path: string, done: string) => {
    setError(undefined);
    setNotice(undefined);
    try {
      await api(method, path);
      setNotice(done);
      data.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };
  const memberPath = (id: string) => `/api/0/organizations/${enc(org)}/members/${enc(id)}/teams/${enc(slug)}/`;
  const projectPath = (project: string) => `/api/0/projects/${enc(org)}/${enc(project)}/teams/${enc(slug)}/`;
  const deleteTeam = async () => {
    if (!confirm(`Delete the team #${slug}? Its members stay in the organization and its projects stay.`)) return;
    if (await run('DELETE', teamPath, 'Team deleted.')) navigate(`/settings/${enc(org)}/teams/`);
  };
  return (
    <>
      <p>
        <Link href={`/settings/${enc(org)}/teams/`}>← Teams</Link>
      </p>
      <h1>{team ? `${team.name} #${team.slug}` : `#${slug}`}</h1>
      <ErrorNote error={data.error ?? error} />
      {notice && <p role="status">{notice}</p>}
      {!data.data ? (
        !data.error && <Skeleton rows={6} />
      ) : (
        <>
          <Section title="Members">
            {members!.length === 0 ? (
              <p class="muted">No members yet.</p>
            ) : (
              <ul class="plain-list">
                {members!.map((member) => (
                  <li key={member.id}>
                    {member.name || member.email} <span class="muted">{member.email}</span>{' '}
                    {access.has('team:write') && (
                      <button type="button" class="danger" onClick={() => void run('DELETE', memberPath(member.id), `${member.email} left the team.`)}>
                        Remove <span class="visually-hidden">{member.email}</span>
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (newMember) void run('POST', memberPath(newMember), 'Member added.').then(() => setNewMember(''));
              }}
            >
              <SelectField
                label="Add a member"
                name="member"
                value={newMember}
                onChange={setNewMember}
                options={[
                  ['', 'Choose a member'],
                  ...everyone!.filter((m) => !inTeam.has(m.id)).map((m): [string, string] => [m.id, m.name ? `${m.name} (${m.email})` : m.email]),
                ]}
              />
              <button type="submit" disabled={!access.has('team:write') || !newMember}>
                Add member
              </button>
              <NeedsScope access={access} scope="team:write" what="change a team's members" />
            </form>
          </Section>
          <Section title="Projects">
            {teamProjects.length === 0 ? (
              <p class="muted">This team has no projects.</p>
            ) : (
              <ul class="plain-list">
                {teamProjects.map((project) => (
                  <li key={project.id}>
                    <Link href={`/settings/${enc(org)}/projects/${enc(project.slug)}/`}>{project.name}</Link>{' '}
                    {access.has('project:write') && (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => void run('DELETE', projectPath(project.slug), `${project.name} removed from the team.`)}
                      >
                        Remove <span class="visually-hidden">{project.name}</span>
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (newProject) void run('POST', projectPath(newProject), 'Project added.').then(() => setNewProject(''));
              }}
            >
              <SelectField
                label="Add a project"
                name="project"
                value={newProject}
                onChange={setNewProject}
                options={[['', 'Choose a project'], ...otherProjects.map((p): [string, string] => [p.slug, p.name])]}
              />
              <button type="submit" disabled={!access.has('project:write') || !newProject}>
                Add project
              </button>
              <NeedsScope access={access} scope="project:write" what="change a team's projects" />
            </form>
          </Section>
          <Section title="Delete the team">
            <p>Its members stay in the organization, and its projects stay with it.</p>
            <button type="button" class="danger" disabled={!access.has('team:admin')} onClick={() => void deleteTeam()}>
              Delete team
            </button>
            <NeedsScope access={access} scope="team:admin" what="delete teams" />
          </Section>
        </>
      )}
    </>
  );
}

const PROVIDER_SOURCES = [
  ['metadataUrl', 'Metadata URL'],
  ['metadataXml', 'Metadata XML'],
  ['manual', 'Entity ID, SSO URL and certificate'],
] as const;
const PROVIDER_FIELDS = ['idpEntityId', 'ssoUrl', 'x509cert', 'metadataUrl', 'metadataXml', 'issuer', 'clientId', 'clientSecret', 'scopes', 'scimEnabled'];
const SAML_FIELDS = ['idpEntityId', 'ssoUrl', 'x509cert'] as const;
const OIDC_FIELDS = ['issuer', 'clientId', 'clientSecret', 'scopes'] as const;

/** The identity provider (SAML or OpenID Connect) and the SCIM switch (the plan must allow them: business or enterprise). */
export function AuthProviderPage(props: { params: Record<string, string>; session: Session }) {
  const { org } = props.params;
  useTitle('Authentication');
  const access = useAccess(org);
  const path = `/api/0/organizations/${enc(org)}/auth-provider/`;
  const organization = useLoad(() => api<{ plan: string; require2FA: boolean }>('GET', `/api/0/organizations/${enc(org)}/`).then(({ body }) => body), [org]);
  // 204 (no body) when no provider is configured yet.
  const provider = useLoad(async () => (await api<AuthProvider | undefined>('GET', path)).body ?? null, [path]);
  const [form, setForm] = useState({
    idpEntityId: '',
    ssoUrl: '',
    x509cert: '',
    metadataUrl: '',
    metadataXml: '',
    issuer: '',
    clientId: '',
    clientSecret: '',
    scopes: '',
  });
  const [chosen, setChosen] = useState<'saml2' | 'oidc'>();
  const [source, setSource] = useState<string>('manual');
  const [error, setError] = useState<unknown>();
  const [scimToken, setScimToken] = useState<string>();
  const plan = organization.data?.plan;
  const planAllows = plan === 'business' || plan === 'enterprise';

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      // Only the chosen protocol's fields filled in are sent: an update keeps the rest (the client secret too).
      const fields: readonly string[] = kind === 'oidc' ? OIDC_FIELDS : source === 'manual' ? SAML_FIELDS : [source];
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
  const canWrite = access.has('org:write');
  const configured = current && (
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
  );
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
          {showsControl(access, 'org:write') && (
            <button type="button" disabled={!canWrite} onClick={() => setRequire2FA(!organization.data!.require2FA)}>
              {organization.data.require2FA ? 'Stop requiring two-factor authentication' : 'Require two-factor authentication'}
            </button>
          )}
          <NeedsScope access={access} scope="org:write" what="change how members sign in" />
        </Section>
      ) : null}
      <Section title="Identity provider">
        {provider.loading && provider.data === undefined ? (
          <Skeleton rows={4} />
        ) : !showsControl(access, 'org:write') ? (
          (configured ?? <p class="muted">No identity provider is configured.</p>)
        ) : (
          <form onSubmit={save} noValidate>
            {configured}
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
              </>
            )}
            {error instanceof ApiError && PROVIDER_FIELDS.some((field) => error.field(field)) ? null : <ErrorNote error={error} />}
            <button type="submit" class="primary" disabled={!planAllows || !canWrite}>
              {current ? 'Update provider' : 'Add provider'}
            </button>
          </form>
        )}
        <NeedsScope access={access} scope="org:write" what="configure single sign-on" />
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
          {showsControl(access, 'org:write') && (
            <button type="button" disabled={!canWrite} onClick={() => setScim(!current.scimEnabled)}>
              {current.scimEnabled ? 'Turn SCIM off (revokes the token)' : 'Turn SCIM on'}
            </button>
          )}
          <NeedsScope access={access} scope="org:write" what="switch SCIM provisioning" />
        </Section>
      )}
    </>
  );
}
