import { identityConfig } from './identity-config';

describe('identityConfig', () => {
  it('reads the organization budgets, with defaults, and names a bad setting', () => {
    expect(identityConfig({}).inviteMails).toEqual({ perRecipient: 3, perOrganization: 100, pendingPerOrganization: 1000 });
    expect(identityConfig({ INVITE_MAILS_PER_ORGANIZATION_HOUR: '20', PENDING_INVITES_PER_ORGANIZATION: '50' }).inviteMails).toMatchObject({
      perOrganization: 20,
      pendingPerOrganization: 50,
    });
    expect(() => identityConfig({ INVITE_MAILS_PER_ORGANIZATION_HOUR: '0' })).toThrow(
      'INVITE_MAILS_PER_ORGANIZATION_HOUR must be an integer between 1 and 100000, got "0"',
    );
    expect(() => identityConfig({ PENDING_INVITES_PER_ORGANIZATION: 'many' })).toThrow(/PENDING_INVITES_PER_ORGANIZATION must be an integer/);
  });
});
