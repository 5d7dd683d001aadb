import { Body, Controller, Get, HttpCode, HttpException, Inject, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { CLOCK, type Clock } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, Database, IfPresent, Public } from '@faultline/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AcceptInviteCommand } from '../application/commands/accept-invite/accept-invite.command';
import type { AcceptedInvite } from '../application/commands/accept-invite/accept-invite.handler';
import { inviteTokenMatches } from '../domain/member-invite';
import { InvitesRepository } from '../infrastructure/invites.repository';
import { SessionsRepository } from '../infrastructure/sessions.repository';
import { SignInThrottle } from '../infrastructure/sign-in-throttle';
import { sessionCookie } from './session-cookie';

export class AcceptInviteDto {
  @ApiProperty({ description: "The password to set (a new account) or the account's password (an existing one)", maxLength: 256 })
  @IsString()
  @MaxLength(256)
  password!: string;

  @ApiPropertyOptional({ description: "A new account's name (Sentry's account name); an existing account keeps its own", maxLength: 200 })
  @IfPresent()
  @IsString()
  @MaxLength(200)
  name?: string;
}

@ApiTags('Members')
@Controller('api/0')
export class AcceptInviteController {
  constructor(
    private readonly database: Database,
    private readonly invites: InvitesRepository,
    private readonly sessions: SessionsRepository,
    private readonly commands: CommandBus,
    private readonly throttle: SignInThrottle,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** What the link invites to (Sentry's accept-invite details), without signing in. */
  @Public()
  @Get('accept-invite/:member_id/:token')
  async details(@Param('member_id') memberId: string, @Param('token') token: string) {
    const invite = await this.invites.find(this.database, memberId);
    if (!invite || !inviteTokenMatches(invite.token, token)) throw new NotFoundException('This invitation link is not valid.');
    if (invite.expires_at.getTime() <= this.clock.now().getTime()) throw new HttpException({ detail: 'This invitation has expired: ask for a new one.' }, 400);
    return {
      organization: { slug: invite.organization_slug, name: invite.organization_name },
      email: invite.email,
      existingUser: (await this.sessions.findUserByEmail(this.database, invite.email)) !== undefined,
      expires: invite.expires_at.toISOString(),
    };
  }

  /** Joins: sets the new account's password, or checks the existing account's (throttled as sign-in is). */
  @Public()
  @Post('accept-invite/:member_id/:token')
  @HttpCode(200)
  async accept(
    @Param('member_id') memberId: string,
    @Param('token') token: string,
    @Body() body: AcceptInviteDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const admission = this.throttle.admit([`invite:${memberId}`, `ip:${request.ip}`]);
    if ('retryAfterSeconds' in admission) {
      void reply.header('retry-after', String(admission.retryAfterSeconds));
      throw new HttpException({ detail: 'Too many attempts. Try again later.' }, 429);
    }
    const joined = await this.commands.execute<AcceptInviteCommand, AcceptedInvite>(
      new AcceptInviteCommand(memberId, token, body.password, body.name, {
        ttlMs: this.config.sessions.ttlMs,
        client: { userAgent: request.headers['user-agent'] ?? null, ipAddress: request.ip },
      }),
    );
    this.throttle.succeeded(admission.attempt);
    // A new account is signed in at once; an existing one signs in as usual (with its second factor, if any).
    if (joined.session) {
      void reply.header(
        'set-cookie',
        sessionCookie(joined.session.cookieValue, Math.floor(this.config.sessions.ttlMs / 1000), this.config.sessions.secureCookie),
      );
    }
    return {
      organization: joined.organizationSlug,
      organizationName: joined.organizationName,
      email: joined.email,
      signedIn: joined.session !== undefined,
      ...(joined.session ? { csrfToken: joined.session.csrfToken } : {}),
    };
  }
}
