import type { Scope } from '@faultline/kernel';

/** Who is calling: resolved from the bearer token by the identity context. */
export interface Principal {
  readonly kind: 'user' | 'organization';
  readonly tokenId: string;
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
  /** The caller's member role, when the caller is a member. */
  readonly role?: string;
  /** What the caller may do in this organization: token scopes limited by the member role. */
  readonly scopes: ReadonlySet<Scope>;
}

/** Implemented by the identity context; the platform's guard depends only on this. */
export abstract class AuthDirectory {
  abstract principalForToken(token: string): Promise<Principal | null>;
  /** null when the organization does not exist or the caller may not see it (answered as 404). */
  abstract organizationAccess(principal: Principal, idOrSlug: string): Promise<OrganizationAccess | null>;
}
