import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Scope } from '@faultline/kernel';
import { type AuthenticatedRequest, PUBLIC_ROUTE, REQUIRED_SCOPES } from './decorators';
import { AuthDirectory } from './principal';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Authentication, tenancy and scopes for every route: no or unknown token 401, an organization the
 * caller cannot see 404, a missing scope 403.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly directory: AuthDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES, targets);
    if (!required) throw new Error(`Route ${context.getClass().name}.${context.getHandler().name} declares no scope`);

    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { headers: Record<string, string | undefined>; params?: Record<string, string> }>();
    const header = request.headers.authorization;
    if (!header) throw new UnauthorizedException({ detail: 'Authentication credentials were not provided.' });
    const token = BEARER.exec(header)?.[1];
    const principal = token ? await this.directory.principalForToken(token) : null;
    if (!principal) throw new UnauthorizedException({ detail: 'Invalid token' });
    request.principal = principal;

    let granted = principal.scopes;
    const organizationParam = request.params?.organization_id_or_slug;
    if (organizationParam !== undefined) {
      const organization = await this.directory.organizationAccess(principal, organizationParam);
      if (!organization) throw new NotFoundException();
      request.organization = organization;
      granted = organization.scopes;
    }
    if (required.length > 0 && !required.some((scope) => granted.has(scope))) {
      throw new ForbiddenException({ detail: 'You do not have permission to perform this action.' });
    }
    return true;
  }
}
