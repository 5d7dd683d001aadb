import { createHmac } from 'node:crypto';
import { DomainError } from '@faultline/kernel';
import type { SsoIdentity } from './saml-sign-in';

/** What an OpenID Connect sign-in asks for when the provider names no scopes. */
export const DEFAULT_OIDC_SCOPES = 'openid email profile';

/** The callback every OpenID Connect provider is given (Sentry's SSO pipeline answers at `/auth/sso/`). */
export const OIDC_CALLBACK_PATH = '/auth/sso/';

export const oidcRefused = (why: string): DomainError => new DomainError('unauthenticated', `OpenID Connect sign-in refused: ${why}.`);

const MAX_FIELD = 320;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim().slice(0, MAX_FIELD) : undefined);

/** Scopes as stored: space-separated, unique, always with `openid` (without it there is no ID token). */
export function normaliseScopes(value: string | undefined): string {
  const scopes = (value ?? DEFAULT_OIDC_SCOPES).split(/\s+/).filter(Boolean);
  if (scopes.some((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/.test(scope)) || scopes.length > 20) {
    throw DomainError.invalid('scopes: space-separated OAuth scopes, at most 20', { errors: { scopes: ['Not a list of scopes'] } });
  }
  return [...new Set(['openid', ...scopes])].join(' ');
}

/**
 * The user from the ID token's claims (after the provider's signature, issuer, audience and nonce
 * were checked). The e-mail decides which account is linked, so an address the provider has not
 * verified is refused: anyone could otherwise claim another person's address at a lax provider.
 */
export function oidcIdentity(claims: Readonly<Record<string, unknown>>): SsoIdentity {
  const idpUserId = text(claims.sub);
  if (!idpUserId) throw oidcRefused('the identity provider sent no subject (sub)');
  const email = text(claims.email)?.toLowerCase();
  if (!email || !EMAIL.test(email)) throw oidcRefused('the identity provider sent no e-mail address (add the "email" scope)');
  if (claims.email_verified !== true) {
    throw oidcRefused(`the identity provider has not verified the e-mail address ${email} (email_verified is not true)`);
  }
  const name = text(claims.name) ?? ([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ') || email);
  return { idpUserId, email, name };
}

/**
 * The PKCE code verifier and the nonce of one sign-in, derived from a secret that only the
 * browser's cookie holds and the sign-in's state. Nothing stored can rebuild them, and a callback
 * replayed from another browser (a stolen code and state) cannot redeem the code.
 */
export function oidcBrowserChecks(browserSecret: string, state: string): { readonly codeVerifier: string; readonly nonce: string } {
  const derive = (purpose: string) => createHmac('sha256', browserSecret).update(`${purpose}\0${state}`).digest('base64url');
  return { codeVerifier: derive('pkce'), nonce: derive('nonce') };
}
