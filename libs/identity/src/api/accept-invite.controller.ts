import { Body, Controller, Get, HttpCode, HttpException, Inject, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { CLOCK, type Clock } from '@faultline/kernel';
import { Database, Public } from '@faultline/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AcceptInviteCommand } from '../application/commands/accept-invite/accept-invite.command';
import { inviteTokenMatches } from '../domain/member-invite';
import { InvitesRepository } from '../infrastructure/invites.repository';
import { SessionsRepository } from '../infrastructure/sessions.repository';
import { SignInThrottle } from '../infrastructure/sign-in-throttle';

export class AcceptInviteDto {
  @ApiProperty({ description: "The password to set (a new account) or the account's password (an existing one)", maxLength: 256 })
  @IsString()
  @MaxLength(256)
  password!: string;
}

/** The page of an invitation's link: set a password (or give yours) and join. */
const ACCEPT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Join</title></head>
<body style="font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem">
<h1 id="title">Join</h1><p id="lead"></p>
<form id="form" hidden><label>Password <input id="password" type="password" autocomplete="new-password" required minlength="8"></label>
<button type="submit">Join</button></form><p id="result" role="status"></p>
<script>
const api = '/api/0/accept-invite' + location.pathname.replace(/^\\/accept/, '');
const say = (text) => { document.getElementById('result').textContent = text; };
fetch(api).then((r) => r.json().then((body) => ({ ok: r.ok, body }))).then(({ ok, body }) => {
  if (!ok) return say(body.detail || 'This invitation link is not valid.');
  document.getElementById('title').textContent = 'Join ' + body.organization.name;
  document.getElementById('lead').textContent = body.existingUser
    ? 'Sign in as ' + body.email + ' with your password to join.'
    : 'Choose the password you will sign in with as ' + body.email + '.';
  if (body.existingUser) document.getElementById('password').autocomplete = 'current-password';
  document.getElementById('form').hidden = false;
});
document.getElementById('form').addEventListener('submit', (event) => {
  event.preventDefault();
  fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: document.getElementById('password').value }) })
    .then((r) => r.json().then((body) => ({ ok: r.ok, body })))
    .then(({ ok, body }) => { if (ok) location.assign('/'); else say(body.detail || 'That did not work.'); });
});
</script></body></html>`;

/** The page an invitation link opens (a page, not the API: no prefix). */
@Controller()
export class AcceptInvitePageController {
  @Public()
  @Get('accept/:member_id/:token')
  page(@Res() reply: FastifyReply) {
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(ACCEPT_PAGE);
  }
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
    const joined = await this.commands.execute<AcceptInviteCommand, { organizationSlug: string; email: string }>(
      new AcceptInviteCommand(memberId, token, body.password),
    );
    this.throttle.succeeded(admission.attempt);
    return { organization: joined.organizationSlug, email: joined.email };
  }
}
