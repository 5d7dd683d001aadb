import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { hashScimToken, SCIM_TOKEN_PREFIX, ScimProviders, scimUnavailable } from '@faultline/identity';
import { AuthDirectory, Database } from '@faultline/platform';
import { ScimError } from '../domain/scim-error';
import { ScimTokenCache } from '../infrastructure/scim-token-cache';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The organization a SCIM request provisions, as its SCIM token established it. */
export interface ScimOrganization {
  readonly id: string;
  readonly slug: string;
}

interface ScimRequest {
  headers: Record<string, string | undefined>;
  params?: Record<string, string>;
  scimOrganization?: ScimOrganization;
}

/**
 * SCIM endpoints take only the organization's SCIM token (issued when SCIM is enabled on its SAML
 * provider). No or an unknown token is 401; a SCIM token of another organization 404, like any
 * object of an organization the caller cannot see. A Faultline API token that can see the
 * organization gets 403 saying what is missing (the plan, the SAML provider, SCIM itself) or that
 * SCIM takes the SCIM token; so does the SCIM token once the plan no longer allows SCIM.
 */
@Injectable()
export class ScimAuthGuard implements CanActivate {
  constructor(
    private readonly database: Database,
    private readonly providers: ScimProviders,
    private readonly directory: AuthDirectory,
    private readonly tokens: ScimTokenCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScimRequest>();
    const organizationParam = request.params?.organization_id_or_slug ?? '';
    const header = request.headers.authorization;
    if (!header) throw new ScimError(401, 'Authentication credentials were not provided.');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw new ScimError(401, 'Invalid token');

    if (token.startsWith(SCIM_TOKEN_PREFIX)) {
      const hash = hashScimToken(token);
      const owner = await this.tokens.getOrLoad(hash, () => this.providers.tokenOwner(this.database, hash));
      if (!owner) throw new ScimError(401, 'Invalid token');
      if (organizationParam !== owner.slug && organizationParam !== owner.organization_id) throw ScimError.notFound();
      const missing = scimUnavailable(owner.plan, { scimEnabled: owner.scim_enabled });
      if (missing) throw new ScimError(403, missing);
      request.scimOrganization = { id: owner.organization_id, slug: owner.slug };
      return true;
    }

    const principal = await this.directory.principalForToken(token);
    if (!principal) throw new ScimError(401, 'Invalid token');
    const organization = await this.directory.organizationAccess(principal, organizationParam);
    if (!organization) throw ScimError.notFound();
    const enabled = await this.providers.scimEnabled(this.database, organization.id);
    const missing = scimUnavailable(organization.plan, enabled === undefined ? undefined : { scimEnabled: enabled });
    throw new ScimError(403, missing ?? 'SCIM endpoints take the SCIM token issued when SCIM was enabled, not an API token.');
  }
}

export const CurrentScimOrganization = createParamDecorator((_: unknown, context: ExecutionContext): ScimOrganization => {
  const organization = context.switchToHttp().getRequest<ScimRequest>().scimOrganization;
  if (!organization) throw new Error('CurrentScimOrganization used on a route without ScimAuthGuard');
  return organization;
});
