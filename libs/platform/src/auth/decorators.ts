import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Scope } from '@faultline/kernel';
import type { OrganizationAccess, Principal } from './principal';

export const PUBLIC_ROUTE = 'faultline:public';
export const REQUIRED_SCOPES = 'faultline:scopes';

/** No token needed (health, metrics, SDK ingestion). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/**
 * The scope a route needs; any one of several listed will do. With no argument the route needs
 * only a valid token.
 */
export const RequireScopes = (...scopes: Scope[]) => SetMetadata(REQUIRED_SCOPES, scopes);

export interface AuthenticatedRequest {
  principal?: Principal;
  organization?: OrganizationAccess;
}

export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});

export const CurrentOrganization = createParamDecorator((_: unknown, context: ExecutionContext): OrganizationAccess => {
  const organization = context.switchToHttp().getRequest<AuthenticatedRequest>().organization;
  if (!organization) throw new Error('CurrentOrganization used on a route without an organization parameter');
  return organization;
});
