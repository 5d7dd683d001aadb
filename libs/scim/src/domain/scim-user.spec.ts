import type { MemberProfile } from '@faultline/identity';
import { ScimError } from './scim-error';
import { patchOperations, patchProfile, profileFromDocument } from './scim-user';

const profile: MemberProfile = {
  userName: 'jane@example.com',
  name: { givenName: 'Jane', familyName: 'Doe' },
  displayName: 'Jane Doe',
  emails: [{ value: 'jane@example.com', type: 'work', primary: true }],
  externalId: '00u1',
  active: true,
  role: 'member',
};

const apply = (...operations: unknown[]) =>
  patchProfile(profile, patchOperations({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations }));

function scimTypeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return error.scimType ?? String(error.status);
    throw error;
  }
  return undefined;
}

describe('SCIM user PATCH', () => {
  it("applies Okta's path-less deactivation, ignoring the id it echoes", () => {
    expect(apply({ op: 'replace', value: { id: '12', active: false } })).toMatchObject({ active: false, userName: 'jane@example.com' });
  });

  it("applies Entra ID's ops in any case, string booleans and value-filter paths", () => {
    const patched = apply(
      { op: 'Replace', path: 'active', value: 'False' },
      { op: 'REPLACE', path: 'emails[type eq "work"].value', value: 'new@example.com' },
      { op: 'Add', path: 'urn:ietf:params:scim:schemas:core:2.0:User:name.familyName', value: 'Smith' },
    );
    expect(patched).toMatchObject({
      active: false,
      emails: [{ value: 'new@example.com', type: 'work', primary: true }],
      name: { givenName: 'Jane', familyName: 'Smith' },
    });
  });

  it('reads dotted keys and attribute names in any case in path-less values', () => {
    expect(apply({ op: 'replace', value: { DisplayName: 'J', 'name.givenName': 'Janet' } })).toMatchObject({
      displayName: 'J',
      name: { givenName: 'Janet', familyName: 'Doe' },
    });
  });

  it('adds a work e-mail when none matches the filter, and removes e-mails by value', () => {
    const home = apply({ op: 'add', path: 'emails', value: [{ value: 'home@example.com', type: 'home' }] });
    expect(home.emails).toHaveLength(2);
    expect(patchProfile(home, patchOperations({ Operations: [{ op: 'remove', path: 'emails', value: [{ value: 'home@example.com' }] }] })).emails).toEqual(
      profile.emails,
    );
    const noWork = { ...profile, emails: [] };
    expect(
      patchProfile(noWork, patchOperations({ Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'w@example.com' }] })).emails,
    ).toEqual([{ value: 'w@example.com', type: 'work' }]);
  });

  it('removes attributes by path', () => {
    expect(apply({ op: 'remove', path: 'externalId' }, { op: 'remove', path: 'name.familyName' })).toMatchObject({
      externalId: null,
      name: { givenName: 'Jane' },
    });
  });

  it('refuses what it cannot apply with the SCIM error type that says why', () => {
    expect(scimTypeOf(() => apply({ op: 'remove' }))).toBe('noTarget');
    expect(scimTypeOf(() => apply({ op: 'replace', path: 'active', value: 'sometimes' }))).toBe('invalidValue');
    expect(scimTypeOf(() => apply({ op: 'remove', path: 'userName' }))).toBe('invalidValue');
    expect(scimTypeOf(() => apply({ op: 'replace', path: 'sentryOrgRole', value: 'owner' }))).toBe('invalidValue');
    expect(scimTypeOf(() => apply({ op: 'copy', path: 'x', value: 1 }))).toBe('invalidSyntax');
    expect(scimTypeOf(() => patchOperations({ Operations: Array(101).fill({ op: 'remove', path: 'displayName' }) }))).toBe('tooMany');
  });
});

describe('SCIM user documents', () => {
  it('reads a POST body with defaults, ignoring what Faultline does not keep', () => {
    expect(profileFromDocument({ userName: ' a@b.c ', password: 'x', locale: 'en', sentryOrgRole: 'Admin' }, { active: true, role: 'member' })).toEqual({
      userName: 'a@b.c',
      name: null,
      displayName: null,
      emails: [],
      externalId: null,
      active: true,
      role: 'admin',
    });
  });
});
