import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { Scope } from '@faultline/kernel';
import { AuthDirectory, type OrganizationAccess, type Principal } from '@faultline/platform';

/**
 * Routes under `/sentry-apps/` and `/sentry-app-installations/` name no organization in their
 * path, so the guard checks only the token; these checks do the rest with the same directory:
 * an organization the caller cannot see is a 404, a missing scope a 403.
 */
@Injectable()
export class IntegrationsAccess {
  constructor(private readonly directory: AuthDirectory) {}

  async organization(principal: Principal, organizationId: string): Promise<OrganizationAccess | null> {
    return this.directory.organizationAccess(principal, organizationId);
  }

  async require(principal: Principal, organizationId: string, ...scopes: Scope[]): Promise<OrganizationAccess> {
    const access = await this.directory.organizationAccess(principal, organizationId);
    if (!access) throw new NotFoundException();
    requireScope(access, ...scopes);
    return access;
  }
}

export function requireScope(access: OrganizationAccess, ...scopes: Scope[]): void {
  if (scopes.length > 0 && !scopes.some((scope) => access.scopes.has(scope))) {
    throw new ForbiddenException({ detail: 'You do not have permission to perform this action.' });
  }
}
