import { randomBytes } from 'node:crypto';
import { DomainError, sha256Hex } from '@faultline/kernel';

/** Which SAML attribute carries each of the user's fields (Sentry's four). */
export interface AttributeMapping {
  readonly identifier: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
}

/**
 * Okta's default is what Sentry's guide has Okta admins configure; Entra sends its claims under
 * their schema URIs without any configuration.
 */
export const ATTRIBUTE_MAPPING_PRESETS: Readonly<Record<'okta' | 'entra', AttributeMapping>> = {
  okta: { identifier: 'user.id', email: 'user.email', firstName: 'user.first_name', lastName: 'user.last_name' },
  entra: {
    identifier: 'http://schemas.microsoft.com/identity/claims/objectidentifier',
    email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    firstName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    lastName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  },
};

/** A mapping given in part falls back to Okta's names, field by field. */
export function attributeMapping(stored: Partial<AttributeMapping> | undefined): AttributeMapping {
  return { ...ATTRIBUTE_MAPPING_PRESETS.okta, ...stored };
}

/** Who the identity provider says signed in. */
export interface SsoIdentity {
  readonly idpUserId: string;
  readonly email: string;
  readonly name: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_FIELD = 320;

const single = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() ? first.trim().slice(0, MAX_FIELD) : undefined;
};

/**
 * The user's fields from an assertion's attributes by the mapping; the identifier falls back to the
 * NameID (what most identity providers send as the stable id), the e-mail to a NameID that is one.
 */
export function ssoIdentity(attributes: Readonly<Record<string, unknown>>, nameId: string | undefined, mapping: AttributeMapping): SsoIdentity {
  const idpUserId = single(attributes[mapping.identifier]) ?? single(nameId);
  const email = single(attributes[mapping.email]) ?? (nameId && EMAIL.test(nameId) ? nameId : undefined);
  if (!idpUserId) throw DomainError.invalid('The identity provider sent no user id (attribute or NameID).');
  if (!email || !EMAIL.test(email)) throw DomainError.invalid(`The identity provider sent no e-mail address in the attribute "${mapping.email}".`);
  const name = [single(attributes[mapping.firstName]), single(attributes[mapping.lastName])].filter(Boolean).join(' ');
  return { idpUserId, email: email.toLowerCase(), name: name || email };
}

/** The times and addressees of an assertion that the signature covers. */
export interface AssertionConditions {
  readonly assertionId: string | undefined;
  readonly notBefore?: string;
  readonly notOnOrAfter?: string;
  readonly subjectNotOnOrAfter?: string;
  readonly recipient?: string;
  readonly inResponseTo?: string;
}

/** Identity providers' clocks drift; SAML libraries commonly allow a few minutes. */
export const CLOCK_SKEW_MS = 3 * 60_000;
/** An assertion with no expiry is accepted this long (and its id remembered that long). */
export const ASSERTION_MAX_AGE_MS = 10 * 60_000;

/**
 * Checks the conditions of a validly signed assertion: its time window against the injected clock,
 * that it was addressed to this organization's assertion consumer, and that it answers the request
 * this browser started (SP-initiated) or none (IdP-initiated). Answers until when its id must be
 * remembered so that it is accepted once.
 */
export function checkAssertion(
  conditions: AssertionConditions,
  expected: { readonly now: Date; readonly acsUrl: string; readonly requestId: string | undefined },
): { readonly assertionId: string; readonly rememberUntil: Date } {
  const now = expected.now.getTime();
  if (!conditions.assertionId) throw refused('the assertion has no ID');
  const notBefore = time(conditions.notBefore);
  if (notBefore !== undefined && now + CLOCK_SKEW_MS < notBefore) throw refused('the assertion is not valid yet');
  const ends = [time(conditions.notOnOrAfter), time(conditions.subjectNotOnOrAfter)].filter((value): value is number => value !== undefined);
  const expiry = ends.length ? Math.min(...ends) : now + ASSERTION_MAX_AGE_MS;
  if (now - CLOCK_SKEW_MS >= expiry) throw refused('the assertion has expired');
  if (conditions.recipient !== expected.acsUrl) throw refused('the assertion is not addressed to this organization (Recipient)');
  if (conditions.inResponseTo !== undefined && conditions.inResponseTo !== expected.requestId) {
    throw refused('the response answers no sign-in started here (InResponseTo)');
  }
  return { assertionId: conditions.assertionId, rememberUntil: new Date(Math.max(expiry, now) + CLOCK_SKEW_MS) };
}

function time(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw refused('the assertion carries an unreadable time');
  return parsed;
}

export const refused = (why: string): DomainError => new DomainError('unauthenticated', `SAML sign-in refused: ${why}.`);

/** What the sign-in of a user the identity provider vouched for does. */
export type SsoLinkDecision =
  | { readonly kind: 'linked'; readonly userId: string }
  | { readonly kind: 'link-provisioned'; readonly userId: string }
  | { readonly kind: 'join'; readonly userId?: undefined }
  | { readonly kind: 'prove-ownership'; readonly userId: string };

/**
 * Sentry's rules: an identity linked before signs in as its user; a member the identity provider
 * provisioned (SCIM) is matched by its external id or e-mail and linked; an e-mail that no account
 * has joins just in time; an account that exists with that e-mail is linked only once its owner
 * proves it with the password, never silently.
 */
export function decideSsoLink(found: {
  readonly linkedUserId?: string;
  readonly provisionedMemberUserId?: string;
  readonly existingUserId?: string;
}): SsoLinkDecision {
  if (found.linkedUserId) return { kind: 'linked', userId: found.linkedUserId };
  if (found.provisionedMemberUserId) return { kind: 'link-provisioned', userId: found.provisionedMemberUserId };
  if (found.existingUserId) return { kind: 'prove-ownership', userId: found.existingUserId };
  return { kind: 'join' };
}

/** A single-use secret (RelayState, pending link): given out once, stored only as its hash, expiring. */
export interface IssuedSsoSecret {
  readonly value: string;
  readonly hash: string;
  readonly expiresAt: Date;
}

/** How long a browser may take at the identity provider, and to give its password for a link. */
export const RELAY_STATE_TTL_MS = 10 * 60_000;
export const PENDING_LINK_TTL_MS = 15 * 60_000;

export function issueSsoSecret(now: Date, ttlMs: number): IssuedSsoSecret {
  const value = randomBytes(32).toString('base64url');
  return { value, hash: hashSsoSecret(value), expiresAt: new Date(now.getTime() + ttlMs) };
}

export const hashSsoSecret = (value: string): string => sha256Hex(`sso:${value}`);
