import { Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { UAParser } from 'ua-parser-js';
import { CLOCK, type Clock, isNumericId } from '@faultline/kernel';
import { CurrentPrincipal, Database, type Principal, RequireScopes } from '@faultline/platform';
import { SignOutCommand } from '../application/commands/sign-out/sign-out.command';
import { UnlinkSsoIdentityCommand } from '../application/commands/unlink-sso-identity/unlink-sso-identity.command';
import { linkedIdentityStatus } from '../domain/linked-identity';
import { type LiveSessionRow, SessionsRepository } from '../infrastructure/sessions.repository';
import { type LinkedIdentityRow, SsoRepository } from '../infrastructure/sso.repository';
import { browserUser, ownUser } from './authenticators.controller';

const SESSIONS_ONLY = 'Sessions are listed and revoked from a signed-in browser session, not with an API token.';
const PROVIDER_NAMES = { saml2: 'SAML2', oidc: 'OpenID Connect' } as const;

function describeBrowser(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = new UAParser(userAgent).getResult();
  const parts = [browser.name, os.name].filter(Boolean);
  return parts.length > 0 ? parts.join(' on ') : null;
}

function serializeSession(row: LiveSessionRow, currentSessionId: string | undefined) {
  return {
    id: row.id,
    current: row.id === currentSessionId,
    dateCreated: row.date_created.toISOString(),
    expires: row.expires_at.toISOString(),
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    browser: describeBrowser(row.user_agent),
  };
}

function serializeIdentity(row: LinkedIdentityRow) {
  const provider = row.provider ? { key: row.provider, name: PROVIDER_NAMES[row.provider] } : { key: 'removed', name: 'Removed provider' };
  return {
    id: row.organization_id,
    category: 'org-identity',
    name: row.idp_user_id,
    provider,
    organization: { id: row.organization_id, slug: row.slug, name: row.name },
    status: linkedIdentityStatus({ ssoRequired: row.provider !== null, isOwner: row.role === 'owner', hasPassword: row.has_password }),
    isLogin: true,
    dateAdded: row.date_created.toISOString(),
    dateVerified: null,
    dateSynced: null,
  };
}

/**
 * The signed-in user's browser sessions. Revoking one is signing it out: at once in this process,
 * within the authentication cache's few seconds in the others. Only a browser session may list or
 * revoke them; an API token is no session.
 */
@ApiTags('Users')
@Controller('api/0/users/:user_id/sessions')
export class AccountSessionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly sessions: SessionsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @RequireScopes()
  async list(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string) {
    const userId = browserUser(principal, userParam, SESSIONS_ONLY);
    return (await this.sessions.liveSessions(this.database, userId, this.clock.now())).map((row) => serializeSession(row, principal.sessionId));
  }

  @Delete(':session_id')
  @HttpCode(204)
  @RequireScopes()
  async revoke(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string, @Param('session_id') sessionId: string): Promise<void> {
    const userId = browserUser(principal, userParam, SESSIONS_ONLY);
    const live = await this.sessions.liveSessions(this.database, userId, this.clock.now());
    if (!live.some((row) => row.id === sessionId)) throw new NotFoundException();
    await this.commands.execute(new SignOutCommand(sessionId));
  }
}

/** Sentry's `/users/{user}/user-identities/`: here the user's links to organizations' single sign-on. */
@ApiTags('Users')
@Controller('api/0/users/:user_id/user-identities')
export class UserIdentitiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly sso: SsoRepository,
  ) {}

  @Get()
  @RequireScopes()
  async list(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string) {
    return (await this.sso.identitiesOf(this.database, ownUser(principal, userParam))).map(serializeIdentity);
  }

  @Delete(':category/:identity_id')
  @HttpCode(204)
  @RequireScopes()
  async unlink(
    @CurrentPrincipal() principal: Principal,
    @Param('user_id') userParam: string,
    @Param('category') category: string,
    @Param('identity_id') identityId: string,
  ): Promise<void> {
    const userId = browserUser(principal, userParam, 'Identities are unlinked from a signed-in browser session, not with an API token.');
    if (category !== 'org-identity' || !isNumericId(identityId)) throw new NotFoundException();
    await this.commands.execute(new UnlinkSsoIdentityCommand(userId, identityId));
  }
}
