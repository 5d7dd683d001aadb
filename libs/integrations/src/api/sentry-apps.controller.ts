import { BadRequestException, Body, Controller, Delete, ForbiddenException, Get, HttpCode, NotFoundException, Param, Post, Put, Query } from '@nestjs/common';
import { IntegrationTokens } from '@faultline/identity';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
} from '@faultline/platform';
import { WebhookTargets } from '@faultline/webhooks';
import { CreateSentryAppCommand } from '../application/commands/create-sentry-app/create-sentry-app.command';
import { DeleteSentryAppCommand } from '../application/commands/delete-sentry-app/delete-sentry-app.command';
import { MintInternalTokenCommand, type MintedToken } from '../application/commands/mint-internal-token/mint-internal-token.command';
import { RevokeInternalTokenCommand } from '../application/commands/revoke-internal-token/revoke-internal-token.command';
import { RequestPublicationCommand } from '../application/commands/request-publication/request-publication.command';
import { UpdateSentryAppCommand } from '../application/commands/update-sentry-app/update-sentry-app.command';
import { APP_WEBHOOK_EVENT_TYPES, APP_WEBHOOK_TARGET, type SentryAppStatus } from '../domain';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import { type SentryAppRow, SentryAppsRepository } from '../infrastructure/sentry-apps.repository';
import { IntegrationsAccess } from './integrations-access';
import { serializeSentryApp } from './integrations.serializers';
import { CreateSentryAppDto, UpdateSentryAppDto } from './sentry-apps.dto';

const LISTABLE_STATUSES: readonly SentryAppStatus[] = ['published', 'unpublished', 'publish_request_inprogress', 'internal'];
/** Sentry keeps the last 100 requests per app and event type. */
const REQUESTS_PER_EVENT_TYPE = 100;
const LOGGED_BODY_CHARACTERS = 1024;

/** Developer settings: service apps (Sentry's `sentry-apps` paths). */
@ApiTags('Integration platform')
@ApiBearerAuth()
@Controller('api/0')
export class SentryAppsController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly apps: SentryAppsRepository,
    private readonly installations: InstallationsRepository,
    private readonly targets: WebhookTargets,
    private readonly access: IntegrationsAccess,
    private readonly tokens: IntegrationTokens,
  ) {}

  @Post('sentry-apps')
  @HttpCode(201)
  @RequireScopes()
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateSentryAppDto) {
    const organization = await this.access.require(principal, body.organization, 'org:write');
    const app = await this.commands.execute<CreateSentryAppCommand, SentryAppRow>(
      new CreateSentryAppCommand({ id: organization.id, slug: organization.slug }, principal.userId ?? null, organization.scopes, {
        name: body.name,
        isInternal: body.isInternal ?? false,
        webhookUrl: body.webhookUrl ?? null,
        redirectUrl: body.redirectUrl ?? null,
        verifyInstall: body.verifyInstall ?? true,
        scopes: body.scopes ?? [],
        events: body.events ?? [],
        isAlertable: body.isAlertable ?? false,
        schema: body.schema,
        allowedOrigins: body.allowedOrigins ?? [],
        webhookHeaders: body.webhookHeaders ?? [],
        overview: body.overview ?? null,
        author: body.author ?? null,
      }),
    );
    return serializeSentryApp(app, { showSecrets: true });
  }

  /** Published apps, which any organization may install; other states for instance administrators. */
  @Get('sentry-apps')
  @RequireScopes()
  @ApiQuery({ name: 'status', required: false, enum: LISTABLE_STATUSES as SentryAppStatus[] })
  async list(@CurrentPrincipal() principal: Principal, @Paginate() page: Pagination, @Query('status') status = 'published') {
    if (!LISTABLE_STATUSES.includes(status as SentryAppStatus)) throw new BadRequestException({ detail: `Invalid status: ${status}` });
    if (status !== 'published' && !principal.isSuperuser)
      throw new ForbiddenException({ detail: 'Only instance administrators can list unpublished integrations.' });
    const rows = await this.apps.listByStatus(this.database, status as SentryAppStatus, page.offset, page.fetchLimit);
    return page.respond(rows).map((app) => serializeSentryApp(app, { showSecrets: false }));
  }

  @Get('sentry-apps/:slug')
  @RequireScopes()
  async detail(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string) {
    const { app, owner } = await this.visible(principal, slug);
    return serializeSentryApp(app, { showSecrets: !!owner?.scopes.has('org:write') });
  }

  @Put('sentry-apps/:slug')
  @RequireScopes()
  async update(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string, @Body() body: UpdateSentryAppDto) {
    const { app, owner } = await this.owned(principal, slug, 'org:write');
    const { status, ...changes } = body;
    const updated = await this.commands.execute<UpdateSentryAppCommand, SentryAppRow>(
      new UpdateSentryAppCommand(app.slug, principal.userId ?? null, owner.scopes, principal.isSuperuser, { ...changes, status }),
    );
    return serializeSentryApp(updated, { showSecrets: true });
  }

  @Delete('sentry-apps/:slug')
  @HttpCode(204)
  @RequireScopes()
  async remove(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string): Promise<void> {
    const { app } = await this.owned(principal, slug, 'org:admin');
    await this.commands.execute(new DeleteSentryAppCommand(app.slug, principal.userId ?? null));
  }

  @Post('sentry-apps/:slug/publish-request')
  @HttpCode(201)
  @RequireScopes()
  async requestPublication(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string): Promise<void> {
    const { app } = await this.owned(principal, slug, 'org:write');
    await this.commands.execute(new RequestPublicationCommand(app.slug, principal.userId ?? null));
  }

  @Post('sentry-apps/:slug/rotate-secret')
  @RequireScopes()
  async rotateSecret(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string) {
    const { app, owner } = await this.owned(principal, slug, 'org:write');
    const updated = await this.commands.execute<UpdateSentryAppCommand, SentryAppRow>(
      new UpdateSentryAppCommand(app.slug, principal.userId ?? null, owner.scopes, principal.isSuperuser, { rotateSecret: true }),
    );
    return { clientSecret: updated.client_secret };
  }

  /** An internal app's tokens: minted by its organization, no expiry. */
  @Post('sentry-apps/:slug/api-tokens')
  @HttpCode(201)
  @RequireScopes()
  async mintToken(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string) {
    const { app, owner } = await this.owned(principal, slug, 'org:write');
    return this.commands.execute<MintInternalTokenCommand, MintedToken>(new MintInternalTokenCommand(app.slug, owner.scopes));
  }

  /** An internal app's minted tokens (last four characters only). */
  @Get('sentry-apps/:slug/api-tokens')
  @RequireScopes()
  async listTokens(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string) {
    const { app } = await this.owned(principal, slug, 'org:write');
    if (!app.is_internal) return [];
    const installation = await this.installations.findLive(this.database, String(app.id), String(app.owner_organization_id));
    const tokens = await this.tokens.list(this.database, installation?.token_ids ?? []);
    return tokens.map((token) => ({
      id: token.id,
      tokenLastCharacters: token.lastCharacters,
      scopes: token.scopes,
      dateCreated: token.dateCreated,
      expiresAt: token.expiresAt,
    }));
  }

  @Delete('sentry-apps/:slug/api-tokens/:token_id')
  @HttpCode(204)
  @RequireScopes()
  async revokeToken(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string, @Param('token_id') tokenId: string): Promise<void> {
    const { app } = await this.owned(principal, slug, 'org:write');
    await this.commands.execute(new RevokeInternalTokenCommand(app.slug, tokenId));
  }

  /** The requests sent to the app's webhook URL (each attempt is one), newest first: the last 100 per event type. */
  @Get('sentry-apps/:slug/requests')
  @RequireScopes()
  @ApiQuery({ name: 'eventType', required: false })
  @ApiQuery({ name: 'errorsOnly', required: false })
  @ApiQuery({ name: 'start', required: false })
  @ApiQuery({ name: 'end', required: false })
  async requests(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Query('eventType') eventType?: string,
    @Query('errorsOnly') errorsOnly?: string,
    @Query('start') start?: string,
    @Query('end') end?: string,
  ) {
    const { app } = await this.owned(principal, slug, 'org:read');
    if (errorsOnly !== undefined && !['true', 'false', '1', '0'].includes(errorsOnly))
      throw new BadRequestException({ detail: 'errorsOnly must be true or false' });
    if (eventType && !(APP_WEBHOOK_EVENT_TYPES as readonly string[]).includes(eventType))
      throw new BadRequestException({ detail: `Invalid eventType: ${eventType}` });
    const rows = await this.targets.requestLog(APP_WEBHOOK_TARGET, app.uuid, {
      eventTypes: eventType ? [eventType] : APP_WEBHOOK_EVENT_TYPES,
      errorsOnly: errorsOnly === 'true' || errorsOnly === '1',
      start: parseTime(start, 'start'),
      end: parseTime(end, 'end'),
      perEventType: REQUESTS_PER_EVENT_TYPE,
    });
    const installationUuids = rows.map((row) => installationOf(row.body)).filter((uuid): uuid is string => !!uuid);
    const installations = new Map((await this.installations.findMany(this.database, [...new Set(installationUuids)])).map((row) => [row.uuid, row]));
    return rows.map((row) => {
      const installation = installations.get(installationOf(row.body) ?? '');
      const failed = row.status_code === null || row.status_code < 200 || row.status_code >= 300;
      return {
        webhookUrl: app.webhook_url,
        sentryAppSlug: app.slug,
        eventType: row.event_type,
        date: (row.attempted_at ?? row.created_at).toISOString(),
        responseCode: row.status_code ?? 0,
        organization: installation ? { name: installation.organization_name, slug: installation.organization_slug } : null,
        ...(failed
          ? { requestBody: row.body.slice(0, LOGGED_BODY_CHARACTERS), responseBody: (row.response_body ?? row.error ?? '').slice(0, LOGGED_BODY_CHARACTERS) }
          : {}),
      };
    });
  }

  /** An app the caller may see: published, or of an organization the caller reaches. */
  private async visible(principal: Principal, slug: string): Promise<{ app: SentryAppRow; owner: OrganizationAccess | null }> {
    const app = await this.apps.findByIdOrSlug(this.database, slug);
    if (!app) throw new NotFoundException();
    const owner = await this.access.organization(principal, String(app.owner_organization_id));
    if (!owner && app.status !== 'published') throw new NotFoundException();
    return { app, owner };
  }

  /** An app of an organization the caller reaches with one of `scopes`, and what the caller holds there. */
  private async owned(
    principal: Principal,
    slug: string,
    ...scopes: Parameters<IntegrationsAccess['require']>[2][]
  ): Promise<{ app: SentryAppRow; owner: OrganizationAccess }> {
    const app = await this.apps.findByIdOrSlug(this.database, slug);
    if (!app) throw new NotFoundException();
    return { app, owner: await this.access.require(principal, String(app.owner_organization_id), ...scopes) };
  }
}

/** The apps an organization owns. */
@ApiTags('Integration platform')
@ApiBearerAuth()
@Controller('api/0')
export class OrganizationSentryAppsController {
  constructor(
    private readonly database: Database,
    private readonly apps: SentryAppsRepository,
  ) {}

  @Get('organizations/:organization_id_or_slug/sentry-apps')
  @RequireScopes('org:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Paginate() page: Pagination) {
    const rows = await this.apps.listOwned(this.database, organization.id, page.offset, page.fetchLimit);
    return page.respond(rows).map((app) => serializeSentryApp(app, { showSecrets: organization.scopes.has('org:write') }));
  }
}

function parseTime(value: string | undefined, name: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const date = /^\d+(\.\d+)?$/.test(value) ? new Date(Number(value) * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) throw new BadRequestException({ detail: `Invalid ${name} parameter.` });
  return date;
}

function installationOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { installation?: { uuid?: string } }).installation?.uuid;
  } catch {
    return undefined;
  }
}
