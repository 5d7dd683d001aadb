import { decideInviteMail, type InviteMailLimits, recipientHash } from './invite-mail-budget';

const limits: InviteMailLimits = { perRecipient: 3, perOrganization: 100, pendingPerOrganization: 1000 };
const now = new Date('2030-01-02T00:00:00Z');
const quiet = { pending: 0, organizationFullSince: null, recipientFullSince: null };

describe('decideInviteMail', () => {
  it('admits while every window has room', () => {
    expect(decideInviteMail(quiet, limits, now)).toEqual({ admitted: true });
    expect(decideInviteMail({ ...quiet, pending: null }, limits, now)).toEqual({ admitted: true });
  });

  it('refuses until the mail that filled a window leaves it, the longer wait when both are full', () => {
    const recipient = decideInviteMail({ ...quiet, recipientFullSince: new Date('2030-01-01T06:00:00Z') }, limits, now);
    expect(recipient).toEqual({ admitted: false, detail: expect.stringContaining('3 invitations in the last 24 hours'), retryAfterSeconds: 6 * 3600 });
    const organization = decideInviteMail({ ...quiet, organizationFullSince: new Date('2030-01-01T23:59:59.500Z') }, limits, now);
    expect(organization).toEqual({ admitted: false, detail: expect.stringContaining('100 invitations in the last hour'), retryAfterSeconds: 3600 });
    const both = decideInviteMail(
      { ...quiet, recipientFullSince: new Date('2030-01-01T00:00:30Z'), organizationFullSince: new Date('2030-01-01T23:30:00Z') },
      limits,
      now,
    );
    expect(both).toMatchObject({ retryAfterSeconds: 30 * 60 });
  });

  it('refuses a new invitation past the pending cap, with no wait to offer; a reinvite adds none', () => {
    expect(decideInviteMail({ ...quiet, pending: 1000 }, limits, now)).toEqual({
      admitted: false,
      detail: expect.stringContaining('1000 pending invitations'),
    });
    expect(decideInviteMail({ ...quiet, pending: null }, limits, now)).toEqual({ admitted: true });
  });

  it('counts an address whatever its case', () => {
    expect(recipientHash('Ada@Example.com')).toBe(recipientHash('ada@example.com'));
  });
});
