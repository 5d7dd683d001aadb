import { CommandBus } from '@nestjs/cqrs';
import { CreateApiTokenCommand, type CreatedApiToken, CreateUserCommand } from '@faultline/identity';
import { ALL_SCOPES, expandScopes } from '@faultline/kernel';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';
import { enableScim, filter, GROUP_SCHEMA, PATCH_OP, SAML_PROVIDER, scimClient, USER_SCHEMA } from '../support/scim';

const patch = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

/**
 * One account can be a member of several organizations; each organization's SCIM manages only its
 * own membership. The account's sign-in e-mail follows a SCIM userName change only when that
 * organization's SCIM created the account and it belongs to no other organization.
 */
describe('SCIM and accounts shared between organizations', () => {
  let api: TestApp;
  let acme: ReturnType<typeof scimClient>;
  let beta: ReturnType<typeof scimClient>;

  const signIn = (username: string, password = BOOTSTRAP.password) => api.request('POST', '/api/0/auth/login/', { token: null, body: { username, password } });
  const accountOf = async (username: string, password?: string) => {
    const signedIn = await signIn(username, password);
    return signedIn.status === 200 ? (signedIn.body.user as { email: string; name: string }) : signedIn.status;
  };

  beforeAll(async () => {
    api = await startTestApp();
    acme = scimClient(api, await enableScim(api));
    // Beta is another tenant: its owner is someone else, and the instance administrator is no member of it.
    const commands = api.app.get(CommandBus);
    const owner = await commands.execute<CreateUserCommand, { id: string }>(new CreateUserCommand('owner@beta.example', 'Beta Owner'));
    const ownerToken = (
      await commands.execute<CreateApiTokenCommand, CreatedApiToken>(
        new CreateApiTokenCommand('user', { userId: owner.id }, 'beta owner', ['org:write'], expandScopes(ALL_SCOPES)),
      )
    ).plaintext;
    expect((await api.request('POST', '/api/0/organizations/', { token: ownerToken, body: { name: 'Beta', slug: 'beta' } })).status).toBe(201);
    expect((await api.request('PUT', '/api/0/organizations/beta/', { body: { plan: 'business' } })).status).toBe(200);
    const provider = await api.request('POST', '/api/0/organizations/beta/auth-provider/', {
      token: ownerToken,
      body: { ...SAML_PROVIDER, scimEnabled: true },
    });
    expect(provider.status).toBe(201);
    beta = scimClient(api, provider.body.scimToken, 'beta');
  });

  afterAll(async () => {
    await api?.close();
  });

  describe("another organization's SCIM and the instance administrator's account", () => {
    let memberId: string;

    it('provisioning the e-mail of an existing account adds only a membership', async () => {
      const created = await beta('POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName: BOOTSTRAP.email,
        name: { givenName: 'Mallory', familyName: 'Beta' },
        displayName: 'Mallory',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ userName: BOOTSTRAP.email, displayName: 'Mallory' });
      memberId = created.body.id;
      const account = await accountOf(BOOTSTRAP.email);
      expect(account).toMatchObject({ email: BOOTSTRAP.email });
      expect((account as { name: string }).name).not.toBe('Mallory');
    });

    it('a userName change by PATCH or PUT renames the membership, never the account', async () => {
      const patched = await beta('PATCH', `/Users/${memberId}`, patch({ op: 'replace', path: 'userName', value: 'mallory@evil.example' }));
      expect(patched.status).toBe(200);
      expect(patched.body.userName).toBe('mallory@evil.example');
      expect((await beta('GET', `/Users?${filter('userName eq "mallory@evil.example"')}`)).body.totalResults).toBe(1);

      const replaced = await beta('PUT', `/Users/${memberId}`, {
        schemas: [USER_SCHEMA],
        userName: 'mallory2@evil.example',
        displayName: 'Mallory Two',
        active: true,
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ userName: 'mallory2@evil.example', displayName: 'Mallory Two' });

      expect(await accountOf(BOOTSTRAP.email)).toMatchObject({ email: BOOTSTRAP.email });
      expect(await accountOf('mallory2@evil.example')).toBe(401);
      // The account's own organization still sees it under its e-mail.
      const inAcme = await acme('GET', `/Users?${filter(`userName eq "${BOOTSTRAP.email}"`)}`);
      expect(inAcme.body.totalResults).toBe(1);
      expect(inAcme.body.Resources[0]).toMatchObject({ userName: BOOTSTRAP.email, sentryOrgRole: 'owner' });
    });

    it('a renamed membership keeps its userName unique within the organization', async () => {
      const duplicate = await beta('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'MALLORY2@evil.example' });
      expect(duplicate.status).toBe(409);
      const other = await beta('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'trent@beta.example' });
      expect(other.status).toBe(201);
      const clash = await beta('PATCH', `/Users/${other.body.id}`, patch({ op: 'replace', path: 'userName', value: 'Mallory2@Evil.example' }));
      expect(clash.status).toBe(409);
      expect((await beta('GET', `/Users/${other.body.id}`)).body.userName).toBe('trent@beta.example');
    });

    it('group members are shown by the membership userName', async () => {
      const group = await beta('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Beta Team', members: [{ value: memberId }] });
      expect(group.status).toBe(201);
      expect((await beta('GET', `/Groups/${group.body.id}`)).body.members).toEqual([{ value: memberId, display: 'mallory2@evil.example' }]);
    });

    it('a membership it gave the instance administrator does not narrow what the administrator may do there', async () => {
      expect((await api.request('PUT', '/api/0/organizations/beta/', { body: { plan: 'free' } })).status).toBe(200);
      expect((await api.request('PUT', '/api/0/organizations/beta/', { body: { plan: 'business' } })).status).toBe(200);
    });

    it('deactivating and deleting end only the membership in that organization', async () => {
      expect((await beta('PATCH', `/Users/${memberId}`, patch({ op: 'replace', value: { active: false } }))).status).toBe(200);
      expect(await accountOf(BOOTSTRAP.email)).toMatchObject({ email: BOOTSTRAP.email });
      expect((await api.request('GET', `/api/0/organizations/${BOOTSTRAP.org}/`)).status).toBe(200);
      expect((await beta('DELETE', `/Users/${memberId}`)).status).toBe(204);
      expect(await accountOf(BOOTSTRAP.email)).toMatchObject({ email: BOOTSTRAP.email });
      expect((await acme('GET', `/Users?${filter(`userName eq "${BOOTSTRAP.email}"`)}`)).body.Resources[0]).toMatchObject({
        active: true,
        sentryOrgRole: 'owner',
      });
    });
  });

  describe('an account created by one organization’s SCIM', () => {
    it('follows a userName change while that organization alone has it', async () => {
      const created = await acme('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'solo@acme.example' });
      const renamed = await acme('PATCH', `/Users/${created.body.id}`, patch({ op: 'replace', path: 'userName', value: 'solo.renamed@acme.example' }));
      expect(renamed.body.userName).toBe('solo.renamed@acme.example');
      // The account has no password, so sign-in fails either way; the members API shows its e-mail.
      const member = await api.request('GET', `/api/0/organizations/acme/members/${created.body.id}/`);
      expect(member.body.email).toBe('solo.renamed@acme.example');
    });

    it('keeps its e-mail once another organization has linked it, whichever of them renames', async () => {
      const created = await acme('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'shared@acme.example' });
      const linked = await beta('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'Shared@acme.example' });
      expect(linked.status).toBe(201);
      expect(
        (await beta('PATCH', `/Users/${linked.body.id}`, patch({ op: 'replace', path: 'userName', value: 'shared.beta@beta.example' }))).body.userName,
      ).toBe('shared.beta@beta.example');
      expect(
        (await acme('PATCH', `/Users/${created.body.id}`, patch({ op: 'replace', path: 'userName', value: 'shared.acme@acme.example' }))).body.userName,
      ).toBe('shared.acme@acme.example');
      for (const [org, id] of [
        ['acme', created.body.id],
        ['beta', linked.body.id],
      ]) {
        const member = await api.request('GET', `/api/0/organizations/${org}/members/${id}/`);
        expect(member.body.email).toBe('shared@acme.example');
      }
      expect((await acme('GET', `/Users/${created.body.id}`)).body.userName).toBe('shared.acme@acme.example');
    });
  });
});
