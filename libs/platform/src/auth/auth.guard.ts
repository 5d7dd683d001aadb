import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Scope } from '@faultline/kernel';
import { type AuthenticatedRequest, PUBLIC_ROUTE, REQUIRED_SCOPES } from './decorators';
import { AuthDirectory, CSRF_HEADER, type Principal, SESSION_COOKIE } from './principal';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
// eslint-disable-next-line no-restricted-syntax -- built from the constant cookie name; no nested quantifier, so linear in the header.
const SESSION_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([A-Za-z0-9_-]+)`);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sentry's answer to a member without the second factor their organization requires. */
const TWO_FACTOR_REQUIRED = {
  detail: { code: '2fa-required', message: 'Organization requires two-factor authentication to be enabled', extra: {} },
};

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Authentication, tenancy and scopes for every route: no or unknown token 401, an organization the
 * caller cannot see 404, a missing scope 403.
 *
 * A request without an Authorization header may be authenticated by the web interface's session
 * cookie instead; then a state-changing method must also carry the session's CSRF token in
 * X-CSRFToken (403 otherwise), since browsers attach cookies to cross-site requests. Bearer tokens
 * are never sent by browsers on their own, so they need no CSRF token.
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

    const request = context
      .switchToHttp()
      .getRequest<AuthenticatedRequest & { method: string; headers: Record<string, string | undefined>; params?: Record<string, string> }>();
    const principal = await this.authenticate(request);
    request.principal = principal;

    let granted = principal.scopes;
    const organizationParam = request.params?.organization_id_or_slug;
    if (organizationParam !== undefined) {
      const organization = await this.directory.organizationAccess(principal, organizationParam);
      if (!organization) throw new NotFoundException();
      if (organization.missingTwoFactor) throw new UnauthorizedException(TWO_FACTOR_REQUIRED);
      request.organization = organization;
      granted = organization.scopes;
    }
    if (required.length > 0 && !required.some((scope) => granted.has(scope))) {
      throw new ForbiddenException({ detail: 'You do not have permission to perform this action.' });
    }
    return true;
  }

  private async authenticate(request: { method: string; headers: Record<string, string | undefined> }): Promise<Principal> {
    const header = request.headers.authorization;
    if (header) {
      const token = BEARER.exec(header)?.[1];
      const principal = token ? await this.directory.principalForToken(token) : null;
      if (!principal) throw new UnauthorizedException({ detail: 'Invalid token' });
      return principal;
    }
    const cookie = request.headers.cookie ? SESSION_COOKIE_VALUE.exec(request.headers.cookie)?.[1] : undefined;
    if (!cookie) throw new UnauthorizedException({ detail: 'Authentication credentials were not provided.' });
    const session = await this.directory.principalForSession(cookie);
    if (!session) throw new UnauthorizedException({ detail: 'Your session has expired. Sign in again.' });
    if (!SAFE_METHODS.has(request.method) && !sameSecret(request.headers[CSRF_HEADER], session.csrfToken)) {
      throw new ForbiddenException({ detail: 'CSRF Failed: CSRF token missing or incorrect.' });
    }
    return session.principal;
  }
}
