import { CommandBus } from '@nestjs/cqrs';
import { ALL_SCOPES, expandScopes } from '@faultline/kernel';
import { CreateApiTokenCommand, type CreatedApiToken } from '@faultline/identity';
import { Database } from '@faultline/platform';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';
import { ERROR_SCHEMA, filter, GROUP_SCHEMA, LIST_RESPONSE, PATCH_OP, SAML_PROVIDER, scimClient, USER_SCHEMA } from '../support/scim';

type Scim = ReturnType<typeof scimClient>;

const patch = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

function expectScimError(response: { status: number; body: any; headers: Headers }, status: number, scimType?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  expect(response.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status) });
  expect(typeof response.body.detail).toBe('string');
  if (scimType) expect(response.body.scimType).toBe(scimType);
}

describe('SCIM 2.0', () => {
  let api: TestApp;
  let scim: Scim;
  let token: string;

  beforeAll(async () => {
    api = await startTestApp();
  });

  afterAll(async () => {
    await api?.close();
  });

  describe('enabling SCIM', () => {
    const users = '/api/0/organizations/acme/scim/v2/Users';

    it('answers 403 saying the plan is missing, then the SAML provider, then SCIM itself', async () => {
      expectScimError(await api.request('GET', users), 403);
      expect((await api.request('GET', users)).body.detail).toMatch(/business or enterprise plan/);

      expect((await api.request('PUT', '/api/0/organizations/acme/', { body: { plan: 'business' } })).status).toBe(200);
      const noProvider = await api.request('GET', users);
      expectScimError(noProvider, 403);
      expect(noProvider.body.detail).toMatch(/SAML identity provider/);

      const created = await api.request('POST', '/api/0/organizations/acme/auth-provider/', { body: SAML_PROVIDER });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ provider: 'saml2', idpEntityId: SAML_PROVIDER.idpEntityId, ssoUrl: SAML_PROVIDER.ssoUrl, scimEnabled: false });
      expect(created.body.scimToken).toBeUndefined();
      const disabled = await api.request('GET', users);
      expectScimError(disabled, 403);
      expect(disabled.body.detail).toMatch(/SCIM is not enabled/);
    });

    it('refuses a second provider, a certificate that is not one, and unknown fields', async () => {
      expect((await api.request('POST', '/api/0/organizations/acme/auth-provider/', { body: SAML_PROVIDER })).status).toBe(409);
      const badCertificate = await api.request('PUT', '/api/0/organizations/acme/auth-provider/', { body: { x509cert: 'not a certificate' } });
      expect(badCertificate.status).toBe(400);
      expect(badCertificate.body.detail).toMatch(/x509cert/);
      expect((await api.request('PUT', '/api/0/organizations/acme/auth-provider/', { body: { provider: 'oidc' } })).status).toBe(400);
      expect((await api.request('PUT', '/api/0/organizations/acme/auth-provider/', { body: { ssoUrl: 'not a url' } })).status).toBe(400);
      expect((await api.request('PUT', '/api/0/organizations/acme/auth-provider/', { body: { surprise: 1 } })).status).toBe(400);
    });

    it('issues the SCIM token once when scimEnabled turns on', async () => {
      const enabled = await api.request('PUT', '/api/0/organizations/acme/auth-provider/', { body: { scimEnabled: true } });
      expect(enabled.status).toBe(200);
      expect(enabled.body.scimToken).toMatch(/^flscim_[0-9a-f]{64}$/);
      expect(enabled.body.scimBaseUrl).toMatch(/\/api\/0\/organizations\/acme\/scim\/v2\/$/);
      token = enabled.body.scimToken;
      scim = scimClient(api, token);

      const read = await api.request('GET', '/api/0/organizations/acme/auth-provider/');
      expect(read.body).toMatchObject({ scimEnabled: true, scimTokenLastCharacters: token.slice(-4) });
      expect(read.body.scimToken).toBeUndefined();
      const again = await api.request('PUT', '/api/0/organizations/acme/auth-provider/', {
        body: { scimEnabled: true, ssoUrl: 'https://idp.example.test/sso' },
      });
      expect(again.body.scimToken).toBeUndefined();
      expect((await scim('GET', '/Users')).status).toBe(200);
    });

    it('the SCIM token reaches only this organization’s SCIM endpoints', async () => {
      expect((await api.request('GET', '/api/0/organizations/acme/', { token })).status).toBe(401);
      expect((await api.request('GET', '/api/0/organizations/', { token })).status).toBe(401);
      const other = await api.request('POST', '/api/0/organizations/', { body: { name: 'Other Org', slug: 'other' } });
      expect(other.status).toBe(201);
      expectScimError(await api.request('GET', '/api/0/organizations/other/scim/v2/Users', { token }), 404);
      // Another organization on the free plan cannot turn SCIM on.
      const refused = await api.request('POST', '/api/0/organizations/other/auth-provider/', { body: { ...SAML_PROVIDER, scimEnabled: true } });
      expect(refused.status).toBe(403);
    });

    it('an API token or no token is refused in SCIM format', async () => {
      const apiToken = await api.request('GET', users);
      expectScimError(apiToken, 403);
      expect(apiToken.body.detail).toMatch(/SCIM token/);
      expectScimError(await api.request('GET', users, { token: null }), 401);
      expectScimError(await api.request('GET', users, { token: 'flscim_nope' }), 401);
    });

    it('answers 403 with the SCIM token once the plan no longer allows SCIM', async () => {
      await api.request('PUT', '/api/0/organizations/acme/', { body: { plan: 'team' } });
      const refused = await scim('GET', '/Users');
      expectScimError(refused, 403);
      expect(refused.body.detail).toMatch(/plan/);
      await api.request('PUT', '/api/0/organizations/acme/', { body: { plan: 'enterprise' } });
      expect((await scim('GET', '/Users')).status).toBe(200);
    });
  });

  describe('Okta', () => {
    let userId: string;
    let groupId: string;

    it('looks a user up by userName before creating it: a miss is an empty list', async () => {
      const response = await scim('GET', `/Users?${filter('userName eq "isabella.okta@example.com"', '&startIndex=1&count=100')}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(response.body).toEqual({ schemas: [LIST_RESPONSE], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
    });

    it('creates the user (201) with everything Okta sends; password, locale and groups are ignored', async () => {
      const response = await scim('POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName: 'isabella.okta@example.com',
        name: { givenName: 'Isabella', familyName: 'Okta' },
        emails: [{ primary: true, value: 'isabella.okta@example.com', type: 'work' }],
        displayName: 'Isabella Okta',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        schemas: [USER_SCHEMA],
        userName: 'isabella.okta@example.com',
        name: { givenName: 'Isabella', familyName: 'Okta' },
        emails: [{ primary: true, value: 'isabella.okta@example.com', type: 'work' }],
        displayName: 'Isabella Okta',
        externalId: '00ujl29u0le5T6Aj10h7',
        active: true,
        sentryOrgRole: 'member',
        meta: { resourceType: 'User', version: 'W/"1"' },
      });
      expect(response.body.password).toBeUndefined();
      expect(response.body.meta.location).toMatch(new RegExp(`/api/0/organizations/acme/scim/v2/Users/${response.body.id}$`));
      expect(response.headers.get('location')).toBe(response.body.meta.location);
      expect(response.headers.get('etag')).toBe('W/"1"');
      expect(Date.parse(response.body.meta.created)).not.toBeNaN();
      expect(Date.parse(response.body.meta.lastModified)).not.toBeNaN();
      userId = response.body.id;
    });

    it('finds the user by userName without regard to case, and by id', async () => {
      const found = await scim('GET', `/Users?${filter('userName eq "Isabella.OKTA@example.com"', '&startIndex=1&count=100')}`);
      expect(found.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
      expect(found.body.Resources[0].id).toBe(userId);
      const one = await scim('GET', `/Users/${userId}`);
      expect(one.status).toBe(200);
      expect(one.body.userName).toBe('isabella.okta@example.com');
    });

    it("answers every field Sentry's published schema requires, with neutral values for what was not sent", async () => {
      const bare = await scim('POST', '/Users', { userName: 'sentry.client@example.com', sentryOrgRole: 'billing' });
      expect(bare.status).toBe(201);
      expect(bare.body).toMatchObject({
        schemas: [USER_SCHEMA],
        userName: 'sentry.client@example.com',
        name: { givenName: 'N/A', familyName: 'N/A' },
        emails: [{ value: 'sentry.client@example.com', type: 'work', primary: true }],
        sentryOrgRole: 'billing',
        meta: { resourceType: 'User' },
      });
      const list = await scim('GET', `/Users?${filter('userName eq "sentry.client@example.com"')}`);
      expect(Object.keys(list.body)).toEqual(expect.arrayContaining(['Resources', 'itemsPerPage', 'schemas', 'startIndex', 'totalResults']));
      // The organization's members API tells provisioned members apart, as Sentry's does.
      const member = await api.request('GET', `/api/0/organizations/acme/members/${bare.body.id}/`);
      expect(member.body).toMatchObject({ role: 'billing', flags: { 'idp:provisioned': true } });
    });

    it('answers 409 for an existing userName, whatever its case', async () => {
      expectScimError(await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'ISABELLA.okta@example.com', active: true }), 409, 'uniqueness');
    });

    it('replaces the profile with PUT', async () => {
      const response = await scim('PUT', `/Users/${userId}`, {
        schemas: [USER_SCHEMA],
        id: userId,
        userName: 'isabella.okta@example.com',
        name: { givenName: 'Bella', familyName: 'Okta' },
        emails: [{ primary: true, value: 'isabella.okta@example.com', type: 'work' }],
        displayName: 'Bella Okta',
        externalId: '00ujl29u0le5T6Aj10h7',
        active: true,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ name: { givenName: 'Bella', familyName: 'Okta' }, displayName: 'Bella Okta', meta: { version: 'W/"2"' } });
    });

    it('deactivates with a path-less replace: the user stays readable with active false, and comes back', async () => {
      const deactivated = await scim('PATCH', `/Users/${userId}`, patch({ op: 'replace', value: { active: false } }));
      expect(deactivated.status).toBe(200);
      expect(deactivated.body.active).toBe(false);
      const read = await scim('GET', `/Users/${userId}`);
      expect(read.status).toBe(200);
      expect(read.body.active).toBe(false);
      const listed = await scim('GET', `/Users?${filter('userName eq "isabella.okta@example.com"')}`);
      expect(listed.body.Resources[0].active).toBe(false);

      const reactivated = await scim('PATCH', `/Users/${userId}`, patch({ op: 'replace', value: { active: true } }));
      expect(reactivated.body.active).toBe(true);
    });

    it('creates a group with no members, finds it by displayName, renames it', async () => {
      const created = await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Okta Engineers', members: [] });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ schemas: [GROUP_SCHEMA], displayName: 'Okta Engineers', members: [], meta: { resourceType: 'Group' } });
      groupId = created.body.id;

      expectScimError(await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Okta Engineers', members: [] }), 409, 'uniqueness');

      const found = await scim('GET', `/Groups?${filter('displayName eq "Okta Engineers"', '&startIndex=1&count=100')}`);
      expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: groupId, displayName: 'Okta Engineers' }] });

      const renamed = await scim('PATCH', `/Groups/${groupId}`, patch({ op: 'replace', value: { id: groupId, displayName: 'Okta Platform' } }));
      expect(renamed.status).toBe(204);
      expect((await scim('GET', `/Groups/${groupId}`)).body.displayName).toBe('Okta Platform');
      // The team behind it follows, slug included.
      expect((await api.request('GET', '/api/0/teams/acme/okta-platform/')).body.name).toBe('Okta Platform');
    });

    it('adds, removes by filter path and replaces members', async () => {
      const second = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'second.okta@example.com', active: true });
      const third = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'third.okta@example.com', active: true });

      const added = await scim(
        'PATCH',
        `/Groups/${groupId}`,
        patch({
          op: 'add',
          path: 'members',
          value: [
            { value: userId, display: 'isabella.okta@example.com' },
            { value: second.body.id, display: 'second.okta@example.com' },
          ],
        }),
      );
      expect(added.status).toBe(204);
      let group = await scim('GET', `/Groups/${groupId}`);
      expect(group.body.members).toEqual([
        { value: userId, display: 'isabella.okta@example.com' },
        { value: second.body.id, display: 'second.okta@example.com' },
      ]);
      expect((await scim('GET', `/Users/${userId}`)).body.groups).toEqual([{ value: groupId, display: 'Okta Platform' }]);

      expect((await scim('PATCH', `/Groups/${groupId}`, patch({ op: 'remove', path: `members[value eq "${userId}"]` }))).status).toBe(204);
      group = await scim('GET', `/Groups/${groupId}`);
      expect(group.body.members.map((member: { value: string }) => member.value)).toEqual([second.body.id]);

      expect(
        (await scim('PATCH', `/Groups/${groupId}`, patch({ op: 'replace', path: 'members', value: [{ value: third.body.id }, { value: userId }] }))).status,
      ).toBe(204);
      group = await scim('GET', `/Groups/${groupId}`);
      expect(group.body.members.map((member: { value: string }) => member.value).sort()).toEqual([third.body.id, userId].sort());
    });

    it('refuses a member that is not one of the organization, changing nothing', async () => {
      const before = await scim('GET', `/Groups/${groupId}`);
      expectScimError(
        await scim(
          'PATCH',
          `/Groups/${groupId}`,
          patch({ op: 'replace', value: { displayName: 'Renamed' } }, { op: 'add', path: 'members', value: [{ value: '999999' }] }),
        ),
        400,
      );
      expect(await scim('GET', `/Groups/${groupId}`)).toMatchObject({ body: { displayName: before.body.displayName, members: before.body.members } });
    });

    it('deletes the group (204), then it is a SCIM 404', async () => {
      expect((await scim('DELETE', `/Groups/${groupId}`)).status).toBe(204);
      expectScimError(await scim('GET', `/Groups/${groupId}`), 404);
      expect((await scim('GET', `/Users/${userId}`)).body.groups).toEqual([]);
    });
  });

  describe('Entra ID', () => {
    let userId: string;
    let groupId: string;
    const userName = 'Test_User_dfeef4c5@contoso.example';

    it('creates a user with the enterprise extension; unknown attributes are ignored', async () => {
      const response = await scim('POST', '/Users', {
        schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName,
        active: true,
        emails: [{ primary: true, type: 'work', value: 'Test_User_11bb6bf4@testuser.example' }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Engineering' },
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ userName, externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', name: { formatted: 'givenName familyName' } });
      userId = response.body.id;
    });

    it('finds it by externalId and by userName', async () => {
      const byExternalId = await scim('GET', `/Users?${filter('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`);
      expect(byExternalId.body.Resources.map((user: { id: string }) => user.id)).toEqual([userId]);
      const byUserName = await scim('GET', `/Users?${filter(`userName eq "${userName}"`)}`);
      expect(byUserName.body.totalResults).toBe(1);
    });

    it('patches with op in any case, value filters in paths and sub-attributes', async () => {
      const response = await scim(
        'PATCH',
        `/Users/${userId}`,
        patch(
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.example' },
          { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
          { op: 'Add', path: 'displayName', value: 'Updated Display' },
        ),
      );
      expect(response.status).toBe(200);
      expect(response.body.emails).toEqual([{ primary: true, type: 'work', value: 'updatedEmail@microsoft.example' }]);
      expect(response.body.name).toMatchObject({ familyName: 'updatedFamilyName', givenName: 'givenName' });
      expect(response.body.displayName).toBe('Updated Display');
    });

    it('replaces several attributes at once with dotted keys in a path-less value', async () => {
      const response = await scim(
        'PATCH',
        `/Users/${userId}`,
        patch({ op: 'Replace', value: { displayName: 'Multi', 'name.givenName': 'Multi-given', 'name.familyName': 'Multi-family' } }),
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ displayName: 'Multi', name: { givenName: 'Multi-given', familyName: 'Multi-family' } });
    });

    it('changes userName', async () => {
      const response = await scim('PATCH', `/Users/${userId}`, patch({ op: 'Replace', path: 'userName', value: 'renamed_user@contoso.example' }));
      expect(response.body.userName).toBe('renamed_user@contoso.example');
      expect((await scim('GET', `/Users?${filter(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);
    });

    it('disables with the string "False" and enables with "True"', async () => {
      const disabled = await scim('PATCH', `/Users/${userId}`, patch({ op: 'Replace', path: 'active', value: 'False' }));
      expect(disabled.status).toBe(200);
      expect(disabled.body.active).toBe(false);
      const enabled = await scim('PATCH', `/Users/${userId}`, patch({ op: 'Replace', path: 'active', value: 'True' }));
      expect(enabled.body.active).toBe(true);
      expectScimError(await scim('PATCH', `/Users/${userId}`, patch({ op: 'Replace', path: 'active', value: 'maybe' })), 400, 'invalidValue');
    });

    it('creates a group and looks it up without members', async () => {
      const created = await scim('POST', '/Groups', {
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'Group1DisplayName',
        meta: { resourceType: 'Group' },
        schemas: [GROUP_SCHEMA],
      });
      expect(created.status).toBe(201);
      expect(created.body.externalId).toBe('8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159');
      groupId = created.body.id;
      const found = await scim('GET', `/Groups?excludedAttributes=members&${filter('displayName eq "Group1DisplayName"')}`);
      expect(found.status).toBe(200);
      expect(found.body.totalResults).toBe(1);
      expect(found.body.Resources[0]).not.toHaveProperty('members');
      expect(found.body.Resources[0]).toMatchObject({ id: groupId, displayName: 'Group1DisplayName' });
      const one = await scim('GET', `/Groups/${groupId}?excludedAttributes=members`);
      expect(one.body).not.toHaveProperty('members');
    });

    it('renames by path, adds members and removes every member listed (204 each)', async () => {
      const others = await Promise.all(
        ['entra.a@contoso.example', 'entra.b@contoso.example'].map((name) => scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: name, active: true })),
      );
      const ids = [userId, ...others.map((other) => other.body.id as string)];
      expect((await scim('PATCH', `/Groups/${groupId}`, patch({ op: 'Replace', path: 'displayName', value: 'Group1Renamed' }))).status).toBe(204);
      expect((await scim('PATCH', `/Groups/${groupId}`, patch({ op: 'Add', path: 'members', value: ids.map((value) => ({ value })) }))).status).toBe(204);
      expect((await scim('GET', `/Groups/${groupId}`)).body.members).toHaveLength(3);
      const removed = await scim('PATCH', `/Groups/${groupId}`, patch({ op: 'Remove', path: 'members', value: [{ value: ids[0] }, { value: ids[1] }] }));
      expect(removed.status).toBe(204);
      const group = await scim('GET', `/Groups/${groupId}`);
      expect(group.body.displayName).toBe('Group1Renamed');
      expect(group.body.members.map((member: { value: string }) => member.value)).toEqual([ids[2]]);
    });

    it('deletes the user (204): the member is gone, the user account stays', async () => {
      expect((await scim('DELETE', `/Users/${userId}`)).status).toBe(204);
      expectScimError(await scim('GET', `/Users/${userId}`), 404);
      const accounts = await api.app.get(Database).query(`SELECT 1 FROM identity.users WHERE email = 'renamed_user@contoso.example'`);
      expect(accounts).toHaveLength(1);
      expect((await scim('GET', `/Groups/${groupId}`)).body.members).toHaveLength(1);
    });

    it('provisions the kept user account again as a new member', async () => {
      const [account] = await api.app.get(Database).query<{ id: string }>(`SELECT id FROM identity.users WHERE email = 'renamed_user@contoso.example'`);
      const again = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'Renamed_User@contoso.example', active: true });
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(userId);
      expect(again.body.userName).toBe('renamed_user@contoso.example');
      const [member] = await api.app
        .get(Database)
        .query<{ user_id: string }>(`SELECT user_id FROM identity.organization_members WHERE id = $1`, [again.body.id]);
      expect(member.user_id).toBe(account.id);
    });

    it('deletes the group (204)', async () => {
      expect((await scim('DELETE', `/Groups/${groupId}`)).status).toBe(204);
      expectScimError(await scim('DELETE', `/Groups/${groupId}`), 404);
    });
  });

  describe('access follows active', () => {
    it('an inactive member loses all access and gets it back when reactivated', async () => {
      const created = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'access.check@example.com', active: true, sentryOrgRole: 'manager' });
      expect(created.body.sentryOrgRole).toBe('manager');
      const [account] = await api.app.get(Database).query<{ id: string }>(`SELECT id FROM identity.users WHERE email = 'access.check@example.com'`);
      const issued = await api.app
        .get(CommandBus)
        .execute<CreateApiTokenCommand, CreatedApiToken>(
          new CreateApiTokenCommand('user', { userId: account.id }, 'member token', ['org:read', 'member:read'], expandScopes(ALL_SCOPES)),
        );
      const userToken = issued.plaintext;
      const organization = () => api.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/`, { token: userToken });
      const organizations = async () => (await api.request('GET', '/api/0/organizations/', { token: userToken })).body.map((org: { slug: string }) => org.slug);
      expect((await organization()).status).toBe(200);
      expect(await organizations()).toEqual([BOOTSTRAP.org]);

      await scim('PATCH', `/Users/${created.body.id}`, patch({ op: 'replace', value: { active: false } }));
      expect((await organization()).status).toBe(404);
      expect(await organizations()).toEqual([]);
      expect((await api.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/members/`, { token: userToken })).status).toBe(404);

      await scim('PATCH', `/Users/${created.body.id}`, patch({ op: 'replace', path: 'active', value: true }));
      expect((await organization()).status).toBe(200);

      await scim('DELETE', `/Users/${created.body.id}`);
      expect((await organization()).status).toBe(404);
    });

    it('never grants owner, and the last owner cannot be deactivated', async () => {
      expectScimError(
        await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'would.be.owner@example.com', sentryOrgRole: 'owner' }),
        400,
        'invalidValue',
      );
      const owner = await scim('GET', `/Users?${filter(`userName eq "${BOOTSTRAP.email}"`)}`);
      const ownerId = owner.body.Resources[0].id;
      expect(owner.body.Resources[0].sentryOrgRole).toBe('owner');
      expectScimError(await scim('PATCH', `/Users/${ownerId}`, patch({ op: 'replace', value: { active: false } })), 403);
      expect((await scim('GET', `/Users/${ownerId}`)).body.active).toBe(true);
    });
  });

  describe('lists and filters', () => {
    const people = ['ada', 'grace', 'linus', 'margaret', 'ken'];
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      for (const [index, person] of people.entries()) {
        const response = await scim('POST', '/Users', {
          schemas: [USER_SCHEMA],
          userName: `${person}@filters.example`,
          externalId: `ext-${person}`,
          displayName: person.toUpperCase(),
          name: { givenName: person, familyName: index % 2 ? 'Odd' : 'Even' },
          emails: [
            { value: `${person}@filters.example`, type: 'work', primary: true },
            { value: `${person}@home.example`, type: 'home' },
          ],
          active: person !== 'ken',
        });
        ids[person] = response.body.id;
      }
    });

    const names = async (expression: string): Promise<string[]> => {
      const response = await scim('GET', `/Users?${filter(expression)}&count=100`);
      expect(response.status).toBe(200);
      return response.body.Resources.map((user: { userName: string }) => user.userName.split('@')[0]).sort();
    };

    it.each([
      ['userName sw "gr" and userName ew "filters.example"', ['grace']],
      ['userName co "@filters" and not (active eq true)', ['ken']],
      ['userName co "@FILTERS" and (name.familyName eq "odd" or displayName eq "ADA")', ['ada', 'grace', 'margaret']],
      ['emails[type eq "home" and value co "linus"]', ['linus']],
      ['emails.value eq "margaret@home.example"', ['margaret']],
      ['externalId eq "ext-ada" or externalId eq "EXT-GRACE"', ['ada']],
      ['userName co "@filters" and active eq false', ['ken']],
      ['userName co "@filters" and displayName pr and displayName ne "KEN" and displayName gt "GRACE"', ['linus', 'margaret']],
      ['userName co "@filters" and not (displayName le "GRACE")', ['ken', 'linus', 'margaret']],
      ['userName co "@filters" and meta.lastModified gt "2000-01-01T00:00:00Z" and meta.created le "2999-01-01T00:00:00Z"', people],
      ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "ada@filters.example"', ['ada']],
      ['userName Eq "ADA@filters.example" AND active eq True', ['ada']],
      ['id eq "not-a-number"', []],
    ])('%s', async (expression, expected) => {
      expect(await names(expression)).toEqual([...expected].sort());
    });

    it.each([
      ['userName eq'],
      ['userName xx "a"'],
      ['(userName eq "a"'],
      ['nickName eq "a"'],
      ['active gt true'],
      ['meta.lastModified gt "yesterday"'],
      ['userName eq "a" or'],
    ])('answers 400 invalidFilter for %s', async (expression) => {
      expectScimError(await scim('GET', `/Users?${filter(expression)}`), 400, 'invalidFilter');
    });

    it('filters groups by displayName without case and by member', async () => {
      const group = await scim('POST', '/Groups', { displayName: 'Filter Team', members: [{ value: ids.ada }] });
      expect((await scim('GET', `/Groups?${filter('displayName eq "filter team"')}`)).body.totalResults).toBe(1);
      const byMember = await scim('GET', `/Groups?${filter(`members[value eq "${ids.ada}"]`)}`);
      expect(byMember.body.Resources.map((found: { id: string }) => found.id)).toEqual([group.body.id]);
      expect((await scim('GET', `/Users?${filter(`groups.value eq "${group.body.id}"`)}`)).body.Resources.map((user: { id: string }) => user.id)).toEqual([
        ids.ada,
      ]);
    });

    it('replaces a group with PUT: name, external id and members', async () => {
      const group = await scim('POST', '/Groups', { displayName: 'Put Team', members: [{ value: ids.grace }] });
      const replaced = await scim('PUT', `/Groups/${group.body.id}`, {
        schemas: [GROUP_SCHEMA],
        displayName: 'Put Team Renamed',
        externalId: 'grp-1',
        members: [{ value: ids.linus }, { value: ids.ken }],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ displayName: 'Put Team Renamed', externalId: 'grp-1', meta: { version: 'W/"2"' } });
      expect(replaced.body.members.map((member: { value: string }) => member.value).sort()).toEqual([ids.linus, ids.ken].sort());
      expect((await scim('GET', `/Groups/${group.body.id}`, undefined)).headers.get('etag')).toBe('W/"2"');
      expectScimError(await scim('PUT', `/Groups/${group.body.id}`, { members: [] }), 400, 'invalidValue');
    });

    it('pages in a stable order with integer paging fields', async () => {
      const all = await scim('GET', `/Users?${filter('userName co "@filters.example"')}`);
      expect(all.body.totalResults).toBe(5);
      const page = await scim('GET', `/Users?${filter('userName co "@filters.example"')}&startIndex=2&count=2`);
      expect(page.body).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
      expect(page.body.Resources.map((user: { id: string }) => user.id)).toEqual(all.body.Resources.slice(1, 3).map((user: { id: string }) => user.id));
      const beyond = await scim('GET', `/Users?${filter('userName co "@filters.example"')}&startIndex=10`);
      expect(beyond.body).toMatchObject({ totalResults: 5, startIndex: 10, itemsPerPage: 0, Resources: [] });
    });

    it('answers the total of an unfiltered list from the member counts, kept as members come and go', async () => {
      const database = api.app.get(Database);
      const members = async () =>
        (
          await database.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM identity.organization_members m JOIN identity.organizations o ON o.id = m.organization_id WHERE o.slug = 'acme'`,
          )
        )[0].n;
      const total = async () => (await scim('GET', '/Users?count=0')).body.totalResults;
      expect(await total()).toBe(await members());
      const extra = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'counted@filters.example' });
      expect(await total()).toBe(await members());
      await scim('DELETE', `/Users/${extra.body.id}`);
      expect(await total()).toBe(await members());
    });

    it('walks every user page by page, in order, also after members are removed', async () => {
      const walk = async () => {
        const ids: string[] = [];
        for (let startIndex = 1; ; startIndex += 3) {
          const page = await scim('GET', `/Users?startIndex=${startIndex}&count=3&excludedAttributes=groups`);
          ids.push(...page.body.Resources.map((user: { id: string }) => user.id));
          if (startIndex + 3 > page.body.totalResults) return ids;
        }
      };
      const all = async () => (await scim('GET', '/Users?count=100')).body.Resources.map((user: { id: string }) => user.id);
      expect(await walk()).toEqual(await all());
      // Twice: the second walk starts each page where the previous one ended.
      expect(await walk()).toEqual(await all());
      const removed = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'walked@filters.example' });
      await scim('DELETE', `/Users/${ids.ada}`);
      await scim('DELETE', `/Users/${removed.body.id}`);
      expect(await walk()).toEqual(await all());
      ids.ada = (
        await scim('POST', '/Users', {
          schemas: [USER_SCHEMA],
          userName: 'ada@filters.example',
          externalId: 'ext-ada',
          displayName: 'ADA',
          name: { givenName: 'ada', familyName: 'Even' },
        })
      ).body.id;
      expect(await walk()).toEqual(await all());
    });

    it('clamps count, reads negative count as 0 and refuses startIndex below 1', async () => {
      const clamped = await scim('GET', '/Users?count=1000');
      expect(clamped.status).toBe(200);
      expect(clamped.body.itemsPerPage).toBeLessThanOrEqual(100);
      const none = await scim('GET', '/Users?count=-5');
      expect(none.body.itemsPerPage).toBe(0);
      expect(none.body.totalResults).toBeGreaterThan(0);
      expectScimError(await scim('GET', '/Users?startIndex=0'), 400, 'invalidValue');
      expectScimError(await scim('GET', '/Users?count=ten'), 400, 'invalidValue');
    });

    it('honours attributes and excludedAttributes', async () => {
      const only = await scim('GET', `/Users/${ids.ada}?attributes=userName,name.givenName`);
      expect(only.body).toEqual({ schemas: [USER_SCHEMA], id: ids.ada, userName: 'ada@filters.example', name: { givenName: 'ada' } });
      const without = await scim('GET', `/Users?${filter('userName eq "ada@filters.example"')}&excludedAttributes=emails,groups,meta`);
      expect(without.body.Resources[0]).not.toHaveProperty('emails');
      expect(without.body.Resources[0]).not.toHaveProperty('groups');
      expect(without.body.Resources[0]).toHaveProperty('userName');
    });
  });

  describe('requests that change nothing', () => {
    let userId: string;

    beforeAll(async () => {
      userId = (await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'steady@example.com', displayName: 'Steady' })).body.id;
    });

    it.each([
      ['more than 100 operations', patch(...Array.from({ length: 101 }, () => ({ op: 'replace', path: 'displayName', value: 'x' }))), 'tooMany'],
      ['an unknown op', patch({ op: 'move', path: 'displayName', value: 'x' }), 'invalidSyntax'],
      ['a remove without path', patch({ op: 'remove' }), 'noTarget'],
      ['no Operations', { schemas: [PATCH_OP] }, 'invalidSyntax'],
      ['a wrong schema', { schemas: ['urn:nope'], Operations: [{ op: 'replace', path: 'displayName', value: 'x' }] }, 'invalidSyntax'],
      ['a replace without value', patch({ op: 'replace', path: 'displayName' }), 'invalidValue'],
      ['a userName that is no e-mail', patch({ op: 'replace', path: 'userName', value: 'not-an-email' }), 'invalidValue'],
      [
        'a later operation that fails',
        patch({ op: 'replace', path: 'displayName', value: 'Changed' }, { op: 'replace', path: 'active', value: 'perhaps' }),
        'invalidValue',
      ],
    ])('PATCH with %s is 400', async (_, body, scimType) => {
      expectScimError(await scim('PATCH', `/Users/${userId}`, body), 400, scimType);
      expect((await scim('GET', `/Users/${userId}`)).body).toMatchObject({ displayName: 'Steady', meta: { version: 'W/"1"' } });
    });

    it('a POST without userName or with a body that is not an object is 400', async () => {
      expectScimError(await scim('POST', '/Users', { schemas: [USER_SCHEMA], displayName: 'Nobody' }), 400, 'invalidValue');
      expectScimError(await scim('POST', '/Users', [1, 2]), 400);
      const malformed = await api.request('POST', '/api/0/organizations/acme/scim/v2/Users', {
        token,
        rawBody: '{"userName":',
        headers: { 'content-type': 'application/scim+json' },
      });
      expectScimError(malformed, 400);
    });

    it('If-Match with an old version is 412; with the current one the change is made', async () => {
      expectScimError(
        await api.request('PATCH', `/api/0/organizations/acme/scim/v2/Users/${userId}`, {
          token,
          body: patch({ op: 'replace', path: 'displayName', value: 'Raced' }),
          headers: { 'content-type': 'application/scim+json', 'if-match': 'W/"0"' },
        }),
        412,
      );
      const current = await api.request('PATCH', `/api/0/organizations/acme/scim/v2/Users/${userId}`, {
        token,
        body: patch({ op: 'replace', path: 'displayName', value: 'Checked' }),
        headers: { 'content-type': 'application/scim+json', 'if-match': 'W/"1"' },
      });
      expect(current.status).toBe(200);
      expect(current.headers.get('etag')).toBe('W/"2"');
    });

    it('unknown users and groups are SCIM 404s', async () => {
      expectScimError(await scim('GET', '/Users/987654'), 404);
      expectScimError(await scim('PATCH', '/Users/987654', patch({ op: 'replace', value: { active: false } })), 404);
      expectScimError(await scim('DELETE', '/Users/abc'), 404);
      expectScimError(await scim('GET', '/Groups/987654'), 404);
      expectScimError(await scim('GET', '/Nothing'), 404);
    });
  });

  describe('discovery', () => {
    it('serves ServiceProviderConfig, ResourceTypes and Schemas', async () => {
      const config = await scim('GET', '/ServiceProviderConfig');
      expect(config.status).toBe(200);
      expect(config.body).toMatchObject({
        patch: { supported: true },
        filter: { supported: true, maxResults: 100 },
        etag: { supported: true },
        bulk: { supported: false },
      });
      const types = await scim('GET', '/ResourceTypes');
      expect(types.body.Resources.map((type: { id: string }) => type.id)).toEqual(['User', 'Group']);
      const schemas = await scim('GET', '/Schemas');
      expect(schemas.body.Resources.map((schema: { id: string }) => schema.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA]);
      expect((await scim('GET', `/Schemas/${USER_SCHEMA}`)).body.attributes.map((attribute: { name: string }) => attribute.name)).toContain('userName');
    });
  });

  describe('domain events', () => {
    it('records provisioning for audit, on one stream per member and team', async () => {
      const rows = await api.app
        .get(Database)
        .query<{ event_type: string; metadata: { actorType?: string } }>(
          `SELECT event_type, metadata FROM event_store.events WHERE event_type LIKE 'identity.%' OR event_type LIKE 'scim.%' ORDER BY global_position`,
        );
      const types = new Set(rows.map((row) => row.event_type));
      for (const type of [
        'identity.MemberProvisioned',
        'identity.MemberUpdated',
        'identity.MemberDeactivated',
        'identity.MemberReactivated',
        'identity.MemberRemoved',
        'identity.TeamCreated',
        'identity.TeamRenamed',
        'identity.TeamMembersChanged',
        'identity.TeamDeleted',
        'scim.AuthProviderCreated',
        'scim.ScimEnabled',
      ]) {
        expect(types).toContain(type);
      }
      expect(rows.find((row) => row.event_type === 'identity.MemberProvisioned')?.metadata.actorType).toBe('application');
    });

    it('turning SCIM off revokes the token; deleting the provider leaves a 403 that says why', async () => {
      const disabled = await api.request('PUT', '/api/0/organizations/acme/auth-provider/', { body: { scimEnabled: false } });
      expect(disabled.body.scimEnabled).toBe(false);
      expectScimError(await scim('GET', '/Users'), 401);
      expect((await api.request('DELETE', '/api/0/organizations/acme/auth-provider/')).status).toBe(204);
      expect((await api.request('GET', '/api/0/organizations/acme/auth-provider/')).status).toBe(204);
      const missing = await api.request('GET', '/api/0/organizations/acme/scim/v2/Users');
      expectScimError(missing, 403);
      expect(missing.body.detail).toMatch(/SAML identity provider/);
    });
  });
});
