import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig, Public, toErrorResponse } from '@faultline/platform';
import { CompleteOidcSignInCommand } from '../application/commands/complete-oidc-sign-in/complete-oidc-sign-in.command';
import type { SsoSignInOutcome } from '../application/sso-sessions';
import { escapeHtml, page } from './saml.controller';
import { OIDC_BROWSER_COOKIE, oidcBrowserCookie, sessionCookie } from './session-cookie';

/** The sign-in cookie's value from a Cookie header. */
function browserSecret(header: string | undefined): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [name, value] = part.trim().split('=', 2);
    if (name === OIDC_BROWSER_COOKIE && value && /^[A-Za-z0-9_-]{1,128}$/.test(value)) return value;
  }
  return undefined;
}
/** A callback's query is a code, a state, an issuer and perhaps an error: a few hundred bytes. */
const MAX_QUERY_CHARS = 8192;

/** OpenID Connect's one callback (Sentry's SSO pipeline address), for every organization. */
@ApiExcludeController()
@Controller()
export class OidcController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
  ) {}

  /** A refused sign-in is a page that says why, for the person in the browser. */
  @Public()
  @Get('auth/sso')
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    // The cookie has done its work whatever happens: one sign-in, one cookie.
    void reply.header('set-cookie', oidcBrowserCookie('', this.config.sessions.secureCookie).replace('Max-Age=600', 'Max-Age=0'));
    try {
      if (search.length > MAX_QUERY_CHARS) throw Object.assign(new Error('The callback is too long.'), { statusCode: 414 });
      const outcome = await this.commands.execute<CompleteOidcSignInCommand, SsoSignInOutcome>(
        new CompleteOidcSignInCommand(new URLSearchParams(search), browserSecret(request.headers.cookie), this.config.sessions.ttlMs, {
          userAgent: request.headers['user-agent'] ?? null,
          ipAddress: request.ip,
        }),
      );
      if (outcome.kind === 'link') return reply.status(302).header('location', `/auth/link/#token=${outcome.linkToken}`).send();
      void reply.header(
        'set-cookie',
        sessionCookie(outcome.session.cookieValue, Math.floor(this.config.sessions.ttlMs / 1000), this.config.sessions.secureCookie),
      );
      return reply.status(302).header('location', `/organizations/${outcome.organizationSlug}/issues/`).send();
    } catch (error) {
      const answer = toErrorResponse(error);
      if (!answer || answer.status >= 500) throw error;
      const html = page(
        'Sign-in refused',
        `<h1>Sign-in refused</h1><p id="reason">${escapeHtml(answer.body.detail)}</p><p><a href="/auth/login/">Back to sign-in</a></p>`,
      );
      return reply.status(answer.status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    }
  }
}
