import fc from 'fast-check';
import { inviteTokenMatches, newInviteToken, normaliseInviteEmail } from './member-invite';

describe('invitations', () => {
  it('take one plain address, trimmed', () => {
    expect(normaliseInviteEmail('  dev@acme.test ')).toBe('dev@acme.test');
    for (const bad of ['dev', 'dev@acme', 'Dev <dev@acme.test>', 'a@b.c\r\nBcc: x@y.z', 'a b@c.d', 'a@b.c,d@e.f', 42, null, `${'a'.repeat(320)}@b.c`]) {
      expect(normaliseInviteEmail(bad)).toBeNull();
    }
  });

  it('never pass on what could split or add a mail header', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const email = normaliseInviteEmail(text);
        if (email !== null) expect(email).not.toMatch(/[\s,;<>]/);
      }),
    );
  });

  it('have tokens only they match', () => {
    const token = newInviteToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(inviteTokenMatches(token, token)).toBe(true);
    expect(inviteTokenMatches(token, newInviteToken())).toBe(false);
    expect(inviteTokenMatches(token, token.slice(1))).toBe(false);
  });
});
