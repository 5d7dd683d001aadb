import type { Sql } from '@faultline/platform';

export { hashScimToken, SCIM_TOKEN_PREFIX, scimUnavailable } from '../domain/auth-provider';
export { AuthProviderEventTypes, AUTH_PROVIDER_STREAM_TYPE, authProviderStream } from '../domain/auth-provider.events';

/** Who a SCIM token belongs to, and what SCIM needs to know of that organization. */
export interface ScimTokenOwner {
  organization_id: string;
  slug: string;
  plan: string;
  scim_enabled: boolean;
}

/**
 * Identity owns an organization's sign-in provider, SCIM's switch and token among its settings;
 * the SCIM context reads through this who a token belongs to and whether SCIM is on.
 */
export abstract class ScimProviders {
  abstract tokenOwner(sql: Sql, tokenHash: string): Promise<ScimTokenOwner | undefined>;
  /** undefined when the organization has no provider. */
  abstract scimEnabled(sql: Sql, organizationId: string): Promise<boolean | undefined>;
}
