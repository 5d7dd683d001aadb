import { linkedIdentityStatus } from './linked-identity';

describe('linkedIdentityStatus', () => {
  it("keeps a member's link while the organization requires single sign-on", () => {
    expect(linkedIdentityStatus({ ssoRequired: true, isOwner: false, hasPassword: true })).toBe('needed_for_org_auth');
  });

  it('lets an owner with a password, or anyone once the provider is gone, unlink', () => {
    expect(linkedIdentityStatus({ ssoRequired: true, isOwner: true, hasPassword: true })).toBe('can_disconnect');
    expect(linkedIdentityStatus({ ssoRequired: false, isOwner: false, hasPassword: true })).toBe('can_disconnect');
  });

  it('keeps the only way in of an account without a password', () => {
    expect(linkedIdentityStatus({ ssoRequired: true, isOwner: true, hasPassword: false })).toBe('needed_for_global_auth');
    expect(linkedIdentityStatus({ ssoRequired: false, isOwner: false, hasPassword: false })).toBe('needed_for_global_auth');
  });
});
