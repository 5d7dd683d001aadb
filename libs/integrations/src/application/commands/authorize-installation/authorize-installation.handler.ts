import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { timingSafeEqual } from 'node:crypto';
import { CLOCK, type Clock, DomainError, randomHex, sha256Hex } from '@faultline/kernel';
import { IntegrationTokens } from '@faultline/identity';
import { Database } from '@faultline/platform';
import { TOKEN_LIFETIME_MS } from '../../../domain';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { SentryAppsRepository } from '../../../infrastructure/sentry-apps.repository';
import { AuthorizeInstallationCommand, type AuthorizedToken } from './authorize-installation.command';

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

/**
 * Sentry's order of checks: the grant type (403), the client pair (401), then the grant or refresh
 * token (401). A refresh revokes the token it replaces in the same transaction.
 */
@CommandHandler(AuthorizeInstallationCommand)
export class AuthorizeInstallationHandler implements ICommandHandler<AuthorizeInstallationCommand, AuthorizedToken> {
  constructor(
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
    private readonly installations: InstallationsRepository,
    private readonly tokens: IntegrationTokens,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ installationUuid, request }: AuthorizeInstallationCommand): Promise<AuthorizedToken> {
    if (!request.grantType || !GRANT_TYPES.has(request.grantType)) throw DomainError.forbidden('Invalid grant_type');
    return this.database.transaction(async (tx) => {
      const installation = await this.installations.load(tx, installationUuid);
      const app = request.clientId ? await this.apps.findByClientId(tx, request.clientId) : null;
      if (!installation || !app || String(app.id) !== installation.snapshot.appId || !sameSecret(app.client_secret, request.clientSecret)) {
        throw new DomainError('unauthenticated', 'Invalid Client ID / Secret pair');
      }
      const now = this.clock.now();
      const at = now.toISOString();
      const refreshToken = randomHex(32);
      // What the installing organization granted, not what the app asks for now.
      const scopes = [...installation.snapshot.scopes];
      const issued = await this.tokens.issue(tx, {
        organizationId: installation.snapshot.organizationId,
        name: `${app.name} installation token`,
        scopes,
        expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS),
      });
      const token = { tokenId: issued.id, refreshTokenHash: sha256Hex(refreshToken), expiresAt: issued.expiresAt as string };
      const metadata = { actorType: 'application' as const, actorId: app.uuid };
      if (request.grantType === 'authorization_code') {
        const code = request.code;
        if (!code) throw new DomainError('unauthenticated', 'Could not find grant for code.');
        await this.installations.decide(tx, installationUuid, (current) => current.exchangeGrant(sha256Hex(code), token, at), {
          metadata,
          loaded: installation,
        });
      } else {
        const refreshToken = request.refreshToken;
        if (!refreshToken) throw new DomainError('unauthenticated', 'Invalid refresh token.');
        const decided = await this.installations.decide(tx, installationUuid, (current) => current.refresh(sha256Hex(refreshToken), token, at), {
          metadata,
          loaded: installation,
        });
        if (decided) await this.tokens.revoke(tx, [decided.result]);
      }
      return {
        id: issued.id,
        token: issued.token,
        refreshToken,
        expiresAt: issued.expiresAt as string,
        dateCreated: issued.dateCreated,
        scopes,
        application: null,
        state: null,
      };
    });
  }
}

function sameSecret(expected: string, given: string | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(sha256Hex(expected), 'hex');
  const b = Buffer.from(sha256Hex(given), 'hex');
  return timingSafeEqual(a, b);
}
