import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

/**
 * Team onboarding without a mail server: the inviter gets the invitation link in the answer, the
 * invitee joins with a name and password and is signed in; members' roles change and members leave
 * under Sentry's rules (nobody manages a role beyond their own; the last owner stays); teams get
 * and lose members and projects, and can be deleted.
 */
describe('team onboarding', () => {
  let api: TestApp;

  beforeAll(async () => {
    api = await startTestApp();
  });

  afterAll(async () => {
    await api?.close();
  });

  interface Session {
    cookie: string;
    csrf: string;
  }

  const as = (session: Session, method: string, path: string, body?: unknown) =>
    api.request(method, path, { token: null, body, headers: { cookie: session.cookie, 'x-csrftoken': session.csrf } });

  /** Invites `email` as `role` and accepts through the link the inviter was given. */
  async function join(email: string, role: string, name = 'New Person'): Promise<{ id: string; session: Session }> {
    const invited = await api.request('POST', `/api/0/organizations/${BOOTSTRAP.org}/members/`, { body: { email, orgRole: role } });
    expect(invited.status).toBe(201);
    const link = new URL(invited.body.invite_link);
    expect(link.pathname).toMatch(new RegExp(`^/accept/${invited.body.id}/[0-9a-f]{64}/$`));
    const accepted = await api.request('POST', link.pathname.replace(/^\/accept\//, '/api/0/accept-invite/'), {
      token: null,
      body: { name, password: 'a long enough password' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ organization: BOOTSTRAP.org, email, signedIn: true });
    return { id: invited.body.id, session: { cookie: (accepted.headers.get('set-cookie') ?? '').split(';')[0], csrf: accepted.body.csrfToken } };
  }

  it('gives the inviter the link, and the invitee joins with a name and is signed in', async () => {
    const { id, session } = await join('newcomer@example.test', 'member', 'Nia Newcomer');
    const me = await as(session, 'GET', '/api/0/auth/');
    expect(me.body.user).toMatchObject({ email: 'newcomer@example.test', name: 'Nia Newcomer' });
    const member = await api.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/members/${id}/`);
    expect(member.body).toMatchObject({ email: 'newcomer@example.test', name: 'Nia Newcomer', orgRole: 'member', pending: false });
    // The organization's page in the interface reads what this member may do.
    const organization = await as(session, 'GET', `/api/0/organizations/${BOOTSTRAP.org}/`);
    expect(organization.body.access).toContain('member:read');
    expect(organization.body.access).not.toContain('member:write');
  });

  it('shows the link again on a reinvite and to admins reading the pending member, never to a plain member', async () => {
    const { session } = await join('plain@example.test', 'member');
    const invited = await api.request('POST', `/api/0/organizations/${BOOTSTRAP.org}/members/`, { body: { email: 'later@example.test' } });
    const again = await api.request('PUT', `/api/0/organizations/${BOOTSTRAP.org}/members/${invited.body.id}/`, { body: { reinvite: true } });
    expect(again.status).toBe(200);
    expect(again.body.invite_link).not.toBe(invited.body.invite_link);
    const read = await api.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/members/${invited.body.id}/`);
    expect(read.body.invite_link).toBe(again.body.invite_link);
    const byMember = await as(session, 'GET', `/api/0/organizations/${BOOTSTRAP.org}/members/${invited.body.id}/`);
    expect(byMember.status).toBe(200);
    expect(byMember.body.invite_link).toBeUndefined();
    expect((await as(session, 'POST', `/api/0/organizations/${BOOTSTRAP.org}/members/`, { email: 'x@example.test' })).status).toBe(403);
  });

  it('changes roles and removes members within the caller’s own role, never the last owner', async () => {
    const manager = await join('manager@example.test', 'member');
    const promoted = await api.request('PUT', `/api/0/organizations/${BOOTSTRAP.org}/members/${manager.id}/`, { body: { orgRole: 'manager' } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.orgRole).toBe('manager');

    const members = (await api.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/members/?per_page=100`)).body as Array<{
      id: string;
      email: string;
      orgRole: string;
    }>;
    const owner = members.find((member) => member.email === BOOTSTRAP.email)!;
    expect(owner.orgRole).toBe('owner');

    // A manager cannot demote or remove an owner, nor make anyone an owner.
    const demote = await as(manager.session, 'PUT', `/api/0/organizations/${BOOTSTRAP.org}/members/${owner.id}/`, { orgRole: 'member' });
    expect(demote.status).toBe(403);
    expect(demote.body.detail).toBe('You do not have permission to change the role of a member with the owner role.');
    expect((await as(manager.session, 'DELETE', `/api/0/organizations/${BOOTSTRAP.org}/members/${owner.id}/`)).status).toBe(403);
    const plain = await join('removed@example.test', 'member');
    expect((await as(manager.session, 'PUT', `/api/0/organizations/${BOOTSTRAP.org}/members/${plain.id}/`, { orgRole: 'owner' })).status).toBe(403);
    expect((await as(manager.session, 'PUT', `/api/0/organizations/${BOOTSTRAP.org}/members/${plain.id}/`, { orgRole: 'admin' })).body.orgRole).toBe('admin');

    // The last owner can be neither demoted nor removed, even by themselves.
    const lastOwner = await api.request('PUT', `/api/0/organizations/${BOOTSTRAP.org}/members/${owner.id}/`, { body: { orgRole: 'manager' } });
    expect(lastOwner.status).toBe(403);
    expect(lastOwner.body.detail).toBe('The last owner of an organization cannot be deactivated or lose the owner role.');
    expect((await api.request('DELETE', `/api/0/organizations/${BOOTSTRAP.org}/members/${owner.id}/`)).status).toBe(403);
    expect((await api.request('PUT', `/api/0/organizations/${BOOTSTRAP.org}/members/${plain.id}/`, { body: { orgRole: 'chief' } })).status).toBe(400);

    // The manager removes a member: their session no longer reaches the organization.
    expect((await as(manager.session, 'DELETE', `/api/0/organizations/${BOOTSTRAP.org}/members/${plain.id}/`)).status).toBe(204);
    expect((await api.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/members/${plain.id}/`)).status).toBe(404);
    expect((await as(plain.session, 'GET', `/api/0/organizations/${BOOTSTRAP.org}/projects/`)).status).toBe(404);
  });

  it('adds and removes a team’s members and projects, and deletes the team', async () => {
    const { id } = await join('teammate@example.test', 'member');
    const team = await api.request('POST', `/api/0/organizations/${BOOTSTRAP.org}/teams/`, { body: { name: 'Platform' } });
    expect(team.status).toBe(201);
    const added = await api.request('POST', `/api/0/organizations/${BOOTSTRAP.org}/members/${id}/teams/platform/`);
    expect(added.status).toBe(201);
    // The team's creator is in it already.
    expect(added.body.memberCount).toBe(2);
    const teamMembers = await api.request('GET', `/api/0/teams/${BOOTSTRAP.org}/platform/members/`);
    expect(teamMembers.body.map((member: { email: string }) => member.email)).toEqual([BOOTSTRAP.email, 'teammate@example.test']);

    const project = await api.request('POST', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/teams/platform/`);
    expect(project.status).toBe(201);
    expect(project.body.teams.map((t: { slug: string }) => t.slug)).toContain('platform');
    const withoutTeam = await api.request('DELETE', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/teams/platform/`);
    expect(withoutTeam.status).toBe(200);
    expect(withoutTeam.body.teams.map((t: { slug: string }) => t.slug)).not.toContain('platform');

    // Another organization's team or member is not found.
    await api.request('POST', '/api/0/organizations/', { body: { name: 'Other', slug: 'other-org' } });
    expect((await api.request('POST', `/api/0/organizations/other-org/members/${id}/teams/platform/`)).status).toBe(404);
    expect((await api.request('POST', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/teams/no-such-team/`)).status).toBe(404);

    expect((await api.request('DELETE', `/api/0/organizations/${BOOTSTRAP.org}/members/${id}/teams/platform/`)).body.memberCount).toBe(1);
    expect((await api.request('DELETE', `/api/0/teams/${BOOTSTRAP.org}/platform/`)).status).toBe(204);
    expect((await api.request('GET', `/api/0/teams/${BOOTSTRAP.org}/platform/`)).status).toBe(404);
  });

  it('tells whether the outbound policy lets a hook reach a URL, only to those who may add hooks', async () => {
    const check = (url: string) => api.request('POST', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/hooks/check-url/`, { body: { url } });
    expect((await check('http://10.1.2.3/hook')).body).toEqual({
      reachable: false,
      reason: '10.1.2.3 is a private address; set WEBHOOK_ALLOW_PRIVATE=true or WEBHOOK_ALLOWED_CIDRS to allow it',
    });
    expect((await check('https://93.184.216.34/hook')).body).toEqual({ reachable: true, reason: null });
    expect((await check('http://[::1]:8080/')).body.reachable).toBe(false);
    expect((await api.request('POST', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/hooks/check-url/`, { body: {} })).status).toBe(400);
    const { session } = await join('checker@example.test', 'member');
    expect((await as(session, 'POST', `/api/0/projects/${BOOTSTRAP.org}/${BOOTSTRAP.project}/hooks/check-url/`, { url: 'http://10.1.2.3/' })).status).toBe(403);
  });
});
