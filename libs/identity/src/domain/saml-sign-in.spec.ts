import fc from 'fast-check';
import {
  ATTRIBUTE_MAPPING_PRESETS,
  attributeMapping,
  type AssertionConditions,
  checkAssertion,
  CLOCK_SKEW_MS,
  decideSsoLink,
  hashSsoSecret,
  issueSsoSecret,
  ssoIdentity,
} from './saml-sign-in';

const NOW = new Date('2026-03-01T10:00:00Z');
const ACS = 'https://faultline.example.com/saml/acs/acme/';
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
const assertion = (overrides: Partial<AssertionConditions> = {}): AssertionConditions => ({
  assertionId: '_a1',
  notBefore: at(0),
  notOnOrAfter: at(5 * 60_000),
  subjectNotOnOrAfter: at(5 * 60_000),
  recipient: ACS,
  ...overrides,
});
const expected = (overrides: Partial<{ now: Date; requestId: string }> = {}) => ({ now: NOW, acsUrl: ACS, requestId: undefined, ...overrides });

describe('SAML assertions', () => {
  it('given an IdP-initiated assertion in its window, when checked, then it is accepted and remembered past its expiry', () => {
    const accepted = checkAssertion(assertion(), expected());
    expect(accepted).toEqual({ assertionId: '_a1', rememberUntil: new Date(NOW.getTime() + 5 * 60_000 + CLOCK_SKEW_MS) });
  });

  it('given an assertion answering the request this browser started, when checked with that request, then it is accepted', () => {
    expect(checkAssertion(assertion({ inResponseTo: '_r1' }), expected({ requestId: '_r1' })).assertionId).toBe('_a1');
  });

  it('given an assertion answering another request or one whose RelayState is spent, when checked, then it is refused', () => {
    expect(() => checkAssertion(assertion({ inResponseTo: '_r1' }), expected({ requestId: '_r2' }))).toThrow(/InResponseTo/);
    expect(() => checkAssertion(assertion({ inResponseTo: '_r1' }), expected())).toThrow(/InResponseTo/);
  });

  it('given an assertion past its NotOnOrAfter (beyond the skew), when checked, then it is refused', () => {
    expect(() => checkAssertion(assertion(), expected({ now: new Date(NOW.getTime() + 5 * 60_000 + CLOCK_SKEW_MS) }))).toThrow(/expired/);
    expect(() => checkAssertion(assertion({ subjectNotOnOrAfter: at(-CLOCK_SKEW_MS - 1) }), expected())).toThrow(/expired/);
    expect(checkAssertion(assertion(), expected({ now: new Date(NOW.getTime() + 5 * 60_000 + CLOCK_SKEW_MS - 1) })).assertionId).toBe('_a1');
  });

  it('given an assertion not valid yet (beyond the skew), when checked, then it is refused', () => {
    expect(() => checkAssertion(assertion({ notBefore: at(CLOCK_SKEW_MS + 1) }), expected())).toThrow(/not valid yet/);
  });

  it("given an assertion addressed to another organization's consumer, or to none, when checked, then it is refused", () => {
    expect(() => checkAssertion(assertion({ recipient: 'https://faultline.example.com/saml/acs/globex/' }), expected())).toThrow(/Recipient/);
    expect(() => checkAssertion(assertion({ recipient: undefined }), expected())).toThrow(/Recipient/);
  });

  it('given an assertion without an ID or with an unreadable time, when checked, then it is refused', () => {
    expect(() => checkAssertion(assertion({ assertionId: undefined }), expected())).toThrow(/no ID/);
    expect(() => checkAssertion(assertion({ notOnOrAfter: 'soon' }), expected())).toThrow(/unreadable/);
  });
});

describe('SSO identities', () => {
  it("given Okta's attributes, when read with the default mapping, then the user's id, e-mail and name come out", () => {
    const identity = ssoIdentity(
      { 'user.id': '00u1', 'user.email': 'Ada@Acme.test', 'user.first_name': 'Ada', 'user.last_name': 'Lovelace' },
      'ignored',
      attributeMapping({}),
    );
    expect(identity).toEqual({ idpUserId: '00u1', email: 'ada@acme.test', name: 'Ada Lovelace' });
  });

  it("given Entra's claims, when read with its preset, then they map; with no id attribute the NameID is the id", () => {
    const claims = ATTRIBUTE_MAPPING_PRESETS.entra;
    expect(ssoIdentity({ [claims.email]: ['grace@acme.test'], [claims.identifier]: 'oid-1' }, 'n', claims)).toMatchObject({ idpUserId: 'oid-1' });
    expect(ssoIdentity({ [claims.email]: 'grace@acme.test' }, 'name-id', claims)).toEqual({
      idpUserId: 'name-id',
      email: 'grace@acme.test',
      name: 'grace@acme.test',
    });
  });

  it('given no e-mail address or no user id, when read, then the sign-in is refused clearly', () => {
    expect(() => ssoIdentity({ 'user.id': '1' }, 'not-an-email', attributeMapping(undefined))).toThrow(/e-mail/);
    expect(() => ssoIdentity({ 'user.email': 'a@b.c' }, undefined, { ...attributeMapping(undefined), identifier: 'none' })).toThrow(/user id/);
  });

  it('never answers an e-mail that is not one address', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          expect(ssoIdentity({ 'user.id': 'x', 'user.email': text }, undefined, attributeMapping(undefined)).email).toMatch(/^[^\s@]+@[^\s@]+$/);
        } catch (error) {
          expect((error as Error).message).toMatch(/e-mail/);
        }
      }),
    );
  });
});

describe('SSO linking', () => {
  it('given an identity linked before, then it signs in as its user', () => {
    expect(decideSsoLink({ linkedUserId: '1', provisionedMemberUserId: '2', existingUserId: '3' })).toEqual({ kind: 'linked', userId: '1' });
  });

  it('given a member SCIM provisioned, then it is linked without a password', () => {
    expect(decideSsoLink({ provisionedMemberUserId: '2', existingUserId: '2' })).toEqual({ kind: 'link-provisioned', userId: '2' });
  });

  it('given an existing account with that e-mail, then its owner must prove it: never linked silently', () => {
    expect(decideSsoLink({ existingUserId: '3' })).toEqual({ kind: 'prove-ownership', userId: '3' });
  });

  it('given nobody, then the user joins just in time', () => {
    expect(decideSsoLink({})).toEqual({ kind: 'join' });
  });

  it('issues single-use secrets stored only as hashes, expiring', () => {
    const secret = issueSsoSecret(NOW, 60_000);
    expect(secret.hash).toBe(hashSsoSecret(secret.value));
    expect(secret.hash).not.toContain(secret.value);
    expect(secret.expiresAt).toEqual(new Date(NOW.getTime() + 60_000));
    expect(issueSsoSecret(NOW, 60_000).value).not.toBe(secret.value);
  });
});
