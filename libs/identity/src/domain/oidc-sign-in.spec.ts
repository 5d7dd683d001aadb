import { hashSsoSecret } from './saml-sign-in';
import { normaliseScopes, oidcBrowserChecks, oidcIdentity } from './oidc-sign-in';

describe('OpenID Connect sign-in decisions', () => {
  it('takes the subject, the lower-cased e-mail and a name from the claims', () => {
    expect(oidcIdentity({ sub: 'u-1', email: 'Grace@Acme.test', email_verified: true, name: 'Grace Hopper' })).toEqual({
      idpUserId: 'u-1',
      email: 'grace@acme.test',
      name: 'Grace Hopper',
    });
    expect(oidcIdentity({ sub: 'u-1', email: 'g@acme.test', email_verified: true, given_name: 'Grace', family_name: 'Hopper' }).name).toBe('Grace Hopper');
    expect(oidcIdentity({ sub: 'u-1', email: 'g@acme.test', email_verified: true }).name).toBe('g@acme.test');
  });

  it('refuses an e-mail the provider has not verified, and claims without a subject or an e-mail', () => {
    expect(() => oidcIdentity({ sub: 'u-1', email: 'g@acme.test', email_verified: false })).toThrow(/has not verified the e-mail address g@acme\.test/);
    expect(() => oidcIdentity({ sub: 'u-1', email: 'g@acme.test' })).toThrow(/has not verified/);
    // A string "true" is not the boolean the specification requires.
    expect(() => oidcIdentity({ sub: 'u-1', email: 'g@acme.test', email_verified: 'true' })).toThrow(/has not verified/);
    expect(() => oidcIdentity({ email: 'g@acme.test', email_verified: true })).toThrow(/no subject/);
    expect(() => oidcIdentity({ sub: 'u-1', email: 'not-an-address', email_verified: true })).toThrow(/no e-mail/);
  });

  it('always asks for openid, once, and refuses what is not a scope', () => {
    expect(normaliseScopes(undefined)).toBe('openid email profile');
    expect(normaliseScopes('email  profile email')).toBe('openid email profile');
    expect(normaliseScopes('openid email groups')).toBe('openid email groups');
    expect(() => normaliseScopes('email "quoted"')).toThrow(/scopes/);
  });

  it("derives the PKCE verifier and the nonce from the browser's secret and the state: another browser or state gives others", () => {
    const checks = oidcBrowserChecks('browser-secret', 'state-1');
    expect(checks).toEqual(oidcBrowserChecks('browser-secret', 'state-1'));
    // RFC 7636: 43 to 128 characters of the unreserved set.
    expect(checks.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(checks.nonce).not.toBe(checks.codeVerifier);
    expect(oidcBrowserChecks('another-browser', 'state-1').nonce).not.toBe(checks.nonce);
    expect(oidcBrowserChecks('browser-secret', 'state-2').codeVerifier).not.toBe(checks.codeVerifier);
    // What is stored of the nonce is its hash.
    expect(hashSsoSecret(checks.nonce)).not.toContain(checks.nonce);
  });
});
