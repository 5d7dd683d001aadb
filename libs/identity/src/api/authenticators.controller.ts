import { Body, Controller, Delete, ForbiddenException, Get, HttpCode, NotFoundException, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { toString as qrCodeSvg } from 'qrcode';
import { isNumericId } from '@faultline/kernel';
import { CurrentPrincipal, Database, type Principal, RequireScopes } from '@faultline/platform';
import { EnrollTotpCommand } from '../application/commands/enroll-totp/enroll-totp.command';
import type { TotpEnrolment } from '../application/commands/enroll-totp/enroll-totp.handler';
import { RegenerateRecoveryCodesCommand } from '../application/commands/regenerate-recovery-codes/regenerate-recovery-codes.command';
import { RemoveAuthenticatorCommand } from '../application/commands/remove-authenticator/remove-authenticator.command';
import { newTotpSecret, totpUri } from '../domain/two-factor';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { type SecurityKeyRow, SecurityKeysRepository } from '../infrastructure/security-keys.repository';
import { type AuthenticatorRow, TwoFactorRepository } from '../infrastructure/two-factor.repository';
import { serializeSecurityKey } from './security-keys.dto';
import { EnrollTotpDto } from './auth.dto';

const INTERFACES = {
  totp: {
    name: 'Authenticator App',
    description: 'An authenticator app (such as Google Authenticator or 1Password) that shows a new code every 30 seconds.',
    isBackupInterface: false,
  },
  u2f: {
    name: 'Security Keys',
    description: "Hardware keys (such as a YubiKey) or a device's built-in authenticator, used through WebAuthn.",
    isBackupInterface: false,
  },
  recovery: {
    name: 'Recovery Codes',
    description: 'Single-use codes for when the authenticator app is not at hand. Each works once.',
    isBackupInterface: true,
  },
} as const;

function serializeAuthenticator(row: AuthenticatorRow, keys: readonly SecurityKeyRow[] = []) {
  return {
    id: row.id,
    type: row.type,
    ...INTERFACES[row.type],
    isEnrolled: true,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    ...(row.type === 'recovery' ? { codesRemaining: row.codes_left ?? 0 } : {}),
    ...(row.type === 'u2f' ? { devices: keys.filter((key) => key.authenticatorId === row.id).map(serializeSecurityKey) } : {}),
  };
}

/**
 * Two-factor authenticators of the signed-in user, at Sentry's `/api/0/users/{user}/authenticators/`
 * paths (`me` or the user's own id). Changing them takes a signed-in browser session: an API
 * token, which a script may hold, can read them but not turn the second factor off.
 */
@ApiTags('Users')
@Controller('api/0/users/:user_id/authenticators')
export class AuthenticatorsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly twoFactor: TwoFactorRepository,
    private readonly identity: IdentityRepository,
    private readonly securityKeys: SecurityKeysRepository,
  ) {}

  @Get()
  @RequireScopes()
  async list(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string) {
    const userId = ownUser(principal, userParam);
    const keys = await this.securityKeys.keys(this.database, userId);
    return (await this.twoFactor.authenticators(this.database, userId)).map((row) => serializeAuthenticator(row, keys));
  }

  /** A new secret to enrol (Sentry's shape: `secret` and the `qrcode` URI), with the QR code drawn as SVG. */
  @Get('totp/enroll')
  @RequireScopes()
  async enrolment(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string) {
    const userId = browserUser(principal, userParam);
    const user = await this.identity.findUser(this.database, userId);
    const secret = newTotpSecret();
    const uri = totpUri(secret, user?.email ?? userId);
    return { secret, qrcode: uri, qrcodeSvg: await qrCodeSvg(uri, { type: 'svg', margin: 1 }) };
  }

  @Post('totp/enroll')
  @HttpCode(200)
  @RequireScopes()
  async enroll(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string, @Body() body: EnrollTotpDto) {
    const userId = browserUser(principal, userParam);
    const enrolment = await this.commands.execute<EnrollTotpCommand, TotpEnrolment>(new EnrollTotpCommand(userId, body.secret, body.otp));
    return { id: enrolment.authenticatorId, type: 'totp', recoveryCodes: enrolment.recoveryCodes };
  }

  @Get(':authenticator_id')
  @RequireScopes()
  async detail(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string, @Param('authenticator_id') id: string) {
    const userId = ownUser(principal, userParam);
    const row = (await this.twoFactor.authenticators(this.database, userId)).find((candidate) => candidate.id === id);
    if (!row) throw new NotFoundException();
    return serializeAuthenticator(row, await this.securityKeys.keys(this.database, userId));
  }

  /** Sentry's "regenerate recovery codes": on the recovery authenticator, new codes shown once. */
  @Put(':authenticator_id')
  @RequireScopes()
  async regenerate(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string, @Param('authenticator_id') id: string) {
    const userId = browserUser(principal, userParam);
    const row = (await this.twoFactor.authenticators(this.database, userId)).find((candidate) => candidate.id === id);
    if (row?.type !== 'recovery') throw new NotFoundException();
    const codes = await this.commands.execute<RegenerateRecoveryCodesCommand, readonly string[]>(new RegenerateRecoveryCodesCommand(userId));
    return { ...serializeAuthenticator({ ...row, codes_left: codes.length }), codes };
  }

  @Delete(':authenticator_id')
  @HttpCode(204)
  @RequireScopes()
  async remove(@CurrentPrincipal() principal: Principal, @Param('user_id') userParam: string, @Param('authenticator_id') id: string): Promise<void> {
    const userId = browserUser(principal, userParam);
    if (!isNumericId(id)) throw new NotFoundException();
    await this.commands.execute(new RemoveAuthenticatorCommand(userId, id));
  }
}

/** The caller's own user: `me` or its id; anyone else's authenticators are not found. */
export function ownUser(principal: Principal, userParam: string): string {
  if (!principal.userId || (userParam !== 'me' && userParam !== principal.userId)) throw new NotFoundException();
  return principal.userId;
}

export function browserUser(
  principal: Principal,
  userParam: string,
  refusal = 'Two-factor authentication is changed from a signed-in browser session, not with an API token.',
): string {
  const userId = ownUser(principal, userParam);
  if (!principal.sessionId) throw new ForbiddenException({ detail: refusal });
  return userId;
}
