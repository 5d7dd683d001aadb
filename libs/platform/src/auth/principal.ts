import type { Scope } from '@faultline/kernel';

/** Who is calling: resolved from the bearer token (or the web interface's session cookie) by the identity context. */
export interface Principal {
  readonly kind: 'user' | 'organization';
  /** The token's id; `session:<id>` for a signed-in browser. */
  readonly tokenId: string;
  /** Set when a browser session authenticated the request (see SESSION_COOKIE). */
  readonly sessionId?: string;
  /** For a session: the organization whose single sign-on it passed, which may then require it. */
  readonly ssoOrganizationId?: string;
  readonly userId?: string;
  /** Set for tokens that belong to one organization and reach only it. */
  readonly organizationId?: string;
  /** The token's scopes with everything they imply. */
  readonly scopes: ReadonlySet<Scope>;
  readonly isSuperuser: boolean;
}

/** The organization a request addresses, as the caller may see it. */
export interface OrganizationAccess {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly plan: string;
  readonly features: readonly string[];
  readonly dateCreated: Date;
  /** The organization requires its members to sign in with a second factor. */
  readonly require2FA: boolean;
  /** The caller is a member without the second factor the organization requires: refused until they enrol. */
  readonly missingTwoFactor?: boolean;
  /** The caller's member role, when the caller is a member. */
  readonly role?: string;
  /** What the caller may do in this organization: token scopes limited by the member role. */
  readonly scopes: ReadonlySet<Scope>;
}

/** A signed-in browser: the user it acts for, and the token its scripts must echo in X-CSRFToken. */
export interface SessionPrincipal {
  readonly principal: Principal;
  readonly csrfToken: string;
}

/** The web interface's session cookie (httpOnly; the value is the session's secret). */
export const SESSION_COOKIE = 'faultline_session';
/** The header carrying the session's CSRF token on state-changing requests, as Sentry's (Django's). */
export const CSRF_HEADER = 'x-csrftoken';

/** Implemented by the identity context; the platform's guard depends only on this. */
export abstract class AuthDirectory {
  abstract principalForToken(token: string): Promise<Principal | null>;
  /** null when the session does not exist, expired or was revoked, or its user is deactivated. */
  abstract principalForSession(cookieValue: string): Promise<SessionPrincipal | null>;
  /** null when the organization does not exist or the caller may not see it (answered as 404). */
  abstract organizationAccess(principal: Principal, idOrSlug: string): Promise<OrganizationAccess | null>;
}
