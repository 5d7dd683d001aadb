import { randomBytes } from 'node:crypto';
import { Body, Controller, Get, HttpCode, HttpException, Inject, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig, Database, Public, toErrorResponse } from '@faultline/platform';
import { CompleteSamlSignInCommand } from '../application/commands/complete-saml-sign-in/complete-saml-sign-in.command';
import type { SamlSignInOutcome } from '../application/commands/complete-saml-sign-in/complete-saml-sign-in.handler';
import { LinkSsoAccountCommand } from '../application/commands/link-sso-account/link-sso-account.command';
import type { StartedSession } from '../application/session-starter';
import { StartSamlSignInCommand } from '../application/commands/start-saml-sign-in/start-saml-sign-in.command';
import { StartOidcSignInCommand } from '../application/commands/start-oidc-sign-in/start-oidc-sign-in.command';
import { SamlServiceProvider } from '../infrastructure/saml-service-provider';
import { SignInThrottle } from '../infrastructure/sign-in-throttle';
import { SsoRepository } from '../infrastructure/sso.repository';
import { oidcBrowserCookie, sessionCookie } from './session-cookie';

/** A SAML response is a few kilobytes; this bounds what one POST makes the XML parser read. */
export const SAML_RESPONSE_MAX_CHARS = 256 * 1024;

export class AssertionConsumerDto {
  @IsString()
  @MaxLength(SAML_RESPONSE_MAX_CHARS)
  SAMLResponse!: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  RelayState?: string;
}

export class LinkSsoAccountDto {
  @ApiProperty({ description: 'The link token the SSO sign-in handed over' })
  @IsString()
  @MaxLength(256)
  token!: string;

  @ApiProperty({ description: "The existing account's password", maxLength: 256 })
  @IsString()
  @MaxLength(256)
  password!: string;
}

export const page = (
  title: string,
  body: string,
) => `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head>
<body style="font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem">${body}</body></html>`;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Why a sign-in through the identity provider did not go through, with the way back to the organization's sign-in page. */
const refusedPage = (slug: string, reason: string) =>
  page(
    'Single sign-on failed',
    `<h1>Single sign-on failed</h1><p>${escapeHtml(reason)}</p><p><a href="/auth/login/${encodeURIComponent(slug)}/">Back to sign-in</a></p>`,
  );

/** The page an SSO sign-in opens when the e-mail belongs to an account that must prove it is its owner's. */
const LINK_PAGE = page(
  'Link your account',
  `<h1>Link your account</h1><p>An account with this e-mail address exists. Sign in with its password to link it to your identity provider.</p>
<form id="form"><label>Password <input id="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Link account</button></form><p id="result" role="status"></p>
<script>
const token = new URLSearchParams(location.hash.slice(1)).get('token');
document.getElementById('form').addEventListener('submit', (event) => {
  event.preventDefault();
  fetch('/api/0/auth/sso-link/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: document.getElementById('password').value }) })
    .then((r) => r.json().then((body) => ({ ok: r.ok, body })))
    .then(({ ok, body }) => { if (ok) location.assign('/organizations/' + body.organization + '/issues/'); else document.getElementById('result').textContent = body.detail || 'That did not work.'; });
});
</script>`,
);

/**
 * SAML 2.0 at Sentry's addresses: the service provider's metadata, the assertion consumer
 * (SP- and IdP-initiated responses), the organization's sign-in page, and the account link.
 */
@ApiExcludeController()
@ApiTags('Single sign-on')
@Controller()
export class SamlController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly sso: SsoRepository,
    private readonly serviceProvider: SamlServiceProvider,
    private readonly throttle: SignInThrottle,
  ) {}

  @Public()
  @Get('saml/metadata/:organization_slug')
  async metadata(@Param('organization_slug') slug: string, @Res() reply: FastifyReply) {
    const provider = await this.sso.samlProvider(this.database, slug);
    if (!provider) throw new NotFoundException({ detail: 'This organization does not sign in with SAML.' });
    return reply.type('application/samlmetadata+xml; charset=utf-8').send(this.serviceProvider.metadata(provider));
  }

  @Public()
  @Post('saml/acs/:organization_slug')
  async assertionConsumer(
    @Param('organization_slug') slug: string,
    @Body() body: AssertionConsumerDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    let outcome: SamlSignInOutcome;
    try {
      outcome = await this.commands.execute<CompleteSamlSignInCommand, SamlSignInOutcome>(
        new CompleteSamlSignInCommand(slug, body.SAMLResponse, body.RelayState || undefined, this.config.sessions.ttlMs, this.client(request)),
      );
    } catch (error) {
      // The identity provider's form lands a person here: a page for them, JSON for any other client.
      const refused = toErrorResponse(error);
      if (!refused || !(request.headers.accept ?? '').includes('text/html')) throw error;
      return reply.status(refused.status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(refusedPage(slug, refused.body.detail));
    }
    if (outcome.kind === 'link') return reply.status(302).header('location', `/auth/link/#token=${outcome.linkToken}`).send();
    this.setCookie(reply, outcome.session);
    return reply.status(302).header('location', `/organizations/${outcome.organizationSlug}/issues/`).send();
  }

  /** The organization's sign-in page (Sentry's `/auth/login/{org}/`): one button to its identity provider. */
  @Public()
  @Get('auth/login/:organization_slug')
  async signInPage(@Param('organization_slug') slug: string, @Res() reply: FastifyReply) {
    const provider = await this.sso.signInProvider(this.database, slug);
    if (!provider) throw new NotFoundException({ detail: 'This organization does not sign in with SSO.' });
    const label = provider.provider === 'oidc' ? 'Sign in with OpenID Connect' : 'Sign in with SSO';
    const html = page(
      `Sign in to ${escapeHtml(provider.name)}`,
      `<h1>Sign in to ${escapeHtml(provider.name)}</h1><form method="post" action="/auth/login/${encodeURIComponent(slug)}/"><button type="submit">${label}</button></form>`,
    );
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  }

  /**
   * Starts sign-in at the organization's identity provider: SAML with a signed AuthnRequest and a
   * single-use RelayState, OpenID Connect with the code flow and a cookie that binds it to this browser.
   */
  @Public()
  @Post('auth/login/:organization_slug')
  async startSignIn(@Param('organization_slug') slug: string, @Res() reply: FastifyReply) {
    const provider = await this.sso.signInProvider(this.database, slug);
    if (provider?.provider === 'oidc') {
      const browserSecret = randomBytes(32).toString('base64url');
      const url = await this.commands.execute<StartOidcSignInCommand, string>(new StartOidcSignInCommand(slug, browserSecret));
      void reply.header('set-cookie', oidcBrowserCookie(browserSecret, this.config.sessions.secureCookie));
      return reply.status(302).header('location', url).header('cache-control', 'no-store').send();
    }
    const url = await this.commands.execute<StartSamlSignInCommand, string>(new StartSamlSignInCommand(slug));
    return reply.status(302).header('location', url).header('cache-control', 'no-store').send();
  }

  @Public()
  @Get('auth/link')
  linkPage(@Res() reply: FastifyReply) {
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(LINK_PAGE);
  }

  /** Links the identity provider's user to an existing account once its password is given (throttled as sign-in is). */
  @Public()
  @Post('api/0/auth/sso-link')
  @HttpCode(200)
  async link(@Body() body: LinkSsoAccountDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const admission = this.throttle.admit([`sso-link:${body.token}`, `ip:${request.ip}`]);
    if ('retryAfterSeconds' in admission) {
      void reply.header('retry-after', String(admission.retryAfterSeconds));
      throw new HttpException({ detail: 'Too many attempts. Try again later.' }, 429);
    }
    const linked = await this.commands.execute<LinkSsoAccountCommand, { session: StartedSession; organizationSlug: string }>(
      new LinkSsoAccountCommand(body.token, body.password, this.config.sessions.ttlMs, this.client(request)),
    );
    this.throttle.succeeded(admission.attempt);
    this.setCookie(reply, linked.session);
    return { organization: linked.organizationSlug, user: linked.session.user, csrfToken: linked.session.csrfToken };
  }

  private client(request: FastifyRequest) {
    return { userAgent: request.headers['user-agent'] ?? null, ipAddress: request.ip };
  }

  private setCookie(reply: FastifyReply, session: StartedSession): void {
    void reply.header('set-cookie', sessionCookie(session.cookieValue, Math.floor(this.config.sessions.ttlMs / 1000), this.config.sessions.secureCookie));
  }
}
