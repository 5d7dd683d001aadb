import { BadRequestException, Body, Controller, Delete, Get, HttpCode, HttpException, Inject, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig, CurrentPrincipal, Database, type Principal, Public, RequireScopes } from '@faultline/platform';
import { CompleteTwoFactorSignInCommand } from '../application/commands/complete-two-factor-sign-in/complete-two-factor-sign-in.command';
import type { TwoFactorSignInResult } from '../application/commands/complete-two-factor-sign-in/complete-two-factor-sign-in.handler';
import { SignInCommand } from '../application/commands/sign-in/sign-in.command';
import { StartSecurityKeySignInCommand } from '../application/commands/start-security-key-sign-in/start-security-key-sign-in.command';
import type { TwoFactorChallenge } from '../application/commands/sign-in/sign-in.handler';
import type { StartedSession } from '../application/session-starter';
import { SignOutCommand } from '../application/commands/sign-out/sign-out.command';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { SessionsRepository } from '../infrastructure/sessions.repository';
import { SignInThrottle } from '../infrastructure/sign-in-throttle';
import { SecurityKeySignInDto, SignInDto, TwoFactorSignInDto } from './auth.dto';
import { parseCredentialResponse } from './security-keys.dto';
import { sessionCookie } from './session-cookie';

/**
 * Signing in to the web interface with a password (Sentry's `/api/0/auth/login/` and
 * `/api/0/auth/`). Sign-in sets an httpOnly, SameSite=Lax session cookie and answers the session's
 * CSRF token, which the interface sends in X-CSRFToken; sign-out revokes the session.
 */
@ApiTags('Authentication')
@Controller('api/0')
export class AuthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly throttle: SignInThrottle,
    private readonly identity: IdentityRepository,
    private readonly sessions: SessionsRepository,
  ) {}

  @Post('auth/login')
  @Public()
  @HttpCode(200)
  async signIn(@Body() body: SignInDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    // The account's key first: a success forgets only its count, never a guessing client's.
    const admission = this.throttle.admit([`email:${body.username.toLowerCase()}`, `ip:${request.ip}`]);
    if ('retryAfterSeconds' in admission) {
      void reply.header('retry-after', String(admission.retryAfterSeconds));
      throw new HttpException({ detail: 'Too many failed sign-in attempts. Try again later.' }, 429);
    }
    const result = await this.commands.execute<SignInCommand, StartedSession | TwoFactorChallenge>(
      new SignInCommand(body.username, body.password, this.config.sessions.ttlMs, this.client(request)),
    );
    this.throttle.succeeded(admission.attempt);
    // The password was right; the session waits for the second factor (POST auth/2fa/).
    if ('twoFactorRequired' in result)
      return { twoFactorRequired: true, challenge: result.challenge, expires: result.expiresAt.toISOString(), interfaces: result.interfaces };
    return this.started(result, reply);
  }

  /** The second step of signing in with a password: a code of the user's authenticator app, or a recovery code. */
  @Post('auth/2fa')
  @Public()
  @HttpCode(200)
  async completeTwoFactor(@Body() body: TwoFactorSignInDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const admission = this.throttle.admit([`ip:${request.ip}`]);
    if ('retryAfterSeconds' in admission) {
      void reply.header('retry-after', String(admission.retryAfterSeconds));
      throw new HttpException({ detail: 'Too many failed sign-in attempts. Try again later.' }, 429);
    }
    const answer = secondFactorAnswer(body);
    const result = await this.commands.execute<CompleteTwoFactorSignInCommand, TwoFactorSignInResult>(
      new CompleteTwoFactorSignInCommand(body.challenge, answer, this.config.sessions.ttlMs, this.client(request)),
    );
    if ('refused' in result) {
      if (result.refused === 'throttled') throw new HttpException({ detail: 'Too many wrong codes. Try again later.' }, 429);
      if (result.refused === 'expired') throw new HttpException({ detail: 'This sign-in has expired. Sign in again.', code: 'challenge-expired' }, 401);
      if ('securityKey' in answer) throw new HttpException({ detail: 'The security key was not accepted. Try again.' }, 401);
      throw new HttpException({ detail: 'Invalid confirmation code. Try again.', otp: ['Invalid confirmation code. Try again.'] }, 401);
    }
    this.throttle.succeeded(admission.attempt);
    return this.started(result.session, reply);
  }

  /** A security key's options for the second step (`navigator.credentials.get`); each call gives a new single-use challenge. */
  @Post('auth/2fa/webauthn')
  @Public()
  @HttpCode(200)
  async securityKeyOptions(@Body() body: SecurityKeySignInDto) {
    const options = await this.commands.execute<StartSecurityKeySignInCommand, PublicKeyCredentialRequestOptionsJSON | undefined>(
      new StartSecurityKeySignInCommand(body.challenge),
    );
    if (!options) throw new HttpException({ detail: 'This sign-in has expired. Sign in again.', code: 'challenge-expired' }, 401);
    return { webAuthnAuthenticationData: options };
  }

  private started(session: StartedSession, reply: FastifyReply) {
    void reply.header('set-cookie', this.cookie(session.cookieValue, Math.floor(this.config.sessions.ttlMs / 1000)));
    return { user: session.user, csrfToken: session.csrfToken, expires: session.expiresAt.toISOString() };
  }

  private client(request: FastifyRequest) {
    return { userAgent: request.headers['user-agent'] ?? null, ipAddress: request.ip };
  }

  /**
   * Who is signed in: Sentry's user fields at the top (what its tools read, such as the MCP
   * server's whoami), and `user`; for a session also its CSRF token, so a reloaded page can go on.
   */
  @Get('auth')
  @RequireScopes()
  async current(@CurrentPrincipal() principal: Principal) {
    const user = principal.userId ? await this.identity.findUser(this.database, principal.userId) : undefined;
    const session = principal.sessionId ? await this.sessions.findSession(this.database, principal.sessionId) : undefined;
    const self = user ? { id: String(user.id), email: user.email, name: user.name, isSuperuser: user.is_superuser } : null;
    return {
      ...(self ? { ...self, username: self.email, isActive: true } : {}),
      user: self,
      ...(session ? { csrfToken: session.csrf_token, expires: session.expires_at.toISOString() } : {}),
    };
  }

  @Delete('auth')
  @HttpCode(204)
  @RequireScopes()
  async signOut(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    if (!principal.sessionId) throw new BadRequestException({ detail: 'Only a signed-in browser session can sign out; revoke a token instead.' });
    await this.commands.execute(new SignOutCommand(principal.sessionId));
    void reply.header('set-cookie', this.cookie('', 0));
  }

  private cookie(value: string, maxAgeSeconds: number): string {
    return sessionCookie(value, maxAgeSeconds, this.config.sessions.secureCookie);
  }
}

/** The code, or the security key's signature (checked for shape here, for everything else by the verifier). */
function secondFactorAnswer(body: TwoFactorSignInDto): CompleteTwoFactorSignInCommand['answer'] {
  if (body.webauthn === undefined) return { code: body.otp ?? '' };
  const securityKey = parseCredentialResponse<AuthenticationResponseJSON>(body.webauthn, 'authenticatorData');
  if (!securityKey) throw new BadRequestException({ detail: 'Not a WebAuthn signature.', webauthn: ['Not a WebAuthn signature.'] });
  return { securityKey };
}
