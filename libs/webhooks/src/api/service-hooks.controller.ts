import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  APP_CONFIG,
  type AppConfig,
  CurrentOrganization,
  CurrentPrincipal,
  Database,
  destinationRefusal,
  type OrganizationAccess,
  Paginate,
  Pagination,
  type Principal,
  RequireScopes,
} from '@faultline/platform';
import { type ProjectSummary, requireProject } from '@faultline/projects';
import { CreateServiceHookCommand } from '../application/commands/create-service-hook/create-service-hook.command';
import { DeleteServiceHookCommand } from '../application/commands/delete-service-hook/delete-service-hook.command';
import { RedeliverWebhookCommand } from '../application/commands/redeliver-webhook/redeliver-webhook.command';
import { UpdateServiceHookCommand } from '../application/commands/update-service-hook/update-service-hook.command';
import { SERVICE_HOOKS_FEATURE, type ServiceHookStatus } from '../domain';
import { DeliveriesRepository } from '../infrastructure/deliveries.repository';
import { SERVICE_HOOK_TARGET, type ServiceHookRow, ServiceHooksRepository } from '../infrastructure/service-hooks.repository';
import { CheckHookUrlDto, CreateServiceHookDto, UpdateServiceHookDto } from './service-hooks.dto';
import { serializeDelivery, serializeServiceHook } from './service-hooks.serializers';

const ATTEMPTS_PER_DELIVERY = 5;

/** Project service hooks (Sentry's paths) with their delivery log and redelivery. */
@ApiTags('Service hooks')
@ApiBearerAuth()
@Controller('api/0')
export class ServiceHooksController {
  constructor(
    private readonly database: Database,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly hooks: ServiceHooksRepository,
    private readonly deliveries: DeliveriesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/hooks')
  @RequireScopes('project:read')
  @ApiQuery({ name: 'status', required: false, enum: ['active', 'disabled'] })
  async list(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Paginate() page: Pagination,
    @Query('status') status?: string,
  ) {
    if (status !== undefined && status !== 'active' && status !== 'disabled') throw new BadRequestException({ detail: 'status must be active or disabled' });
    const project = await this.project(organization, projectIdOrSlug);
    const rows = await this.hooks.list(this.database, project.id, status as ServiceHookStatus | undefined, page.offset, page.fetchLimit);
    return page.respond(rows).map(serializeServiceHook);
  }

  /** Whether the outbound policy lets deliveries reach a URL's host, to warn before saving (the interface asks). */
  @Post('projects/:organization_id_or_slug/:project_id_or_slug/hooks/check-url')
  @HttpCode(200)
  @RequireScopes('project:write')
  async checkUrl(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') projectIdOrSlug: string, @Body() body: CheckHookUrlDto) {
    await this.project(organization, projectIdOrSlug);
    const refusal = await destinationRefusal(body.url, this.config.webhooks, Math.min(this.config.webhooks.timeoutMs, 2_000));
    return { reachable: refusal === null, reason: refusal };
  }

  @Post('projects/:organization_id_or_slug/:project_id_or_slug/hooks')
  @HttpCode(201)
  @RequireScopes('project:write')
  async create(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Body() body: CreateServiceHookDto,
  ) {
    const project = await this.project(organization, projectIdOrSlug);
    const hook = await this.commands.execute<CreateServiceHookCommand, ServiceHookRow>(
      new CreateServiceHookCommand(project, body.url, body.events, principal.userId ?? null),
    );
    return serializeServiceHook(hook);
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/hooks/:hook_id')
  @RequireScopes('project:read')
  async detail(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('hook_id') hookId: string,
  ) {
    const project = await this.project(organization, projectIdOrSlug);
    return serializeServiceHook(await this.hook(project, hookId));
  }

  @Put('projects/:organization_id_or_slug/:project_id_or_slug/hooks/:hook_id')
  @RequireScopes('project:write')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('hook_id') hookId: string,
    @Body() body: UpdateServiceHookDto,
  ) {
    const project = await this.project(organization, projectIdOrSlug);
    const hook = await this.commands.execute<UpdateServiceHookCommand, ServiceHookRow>(
      new UpdateServiceHookCommand(project.id, hookId, body, principal.userId ?? null),
    );
    return serializeServiceHook(hook);
  }

  @Delete('projects/:organization_id_or_slug/:project_id_or_slug/hooks/:hook_id')
  @HttpCode(204)
  @RequireScopes('project:write')
  async remove(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('hook_id') hookId: string,
  ): Promise<void> {
    const project = await this.project(organization, projectIdOrSlug);
    await this.commands.execute(new DeleteServiceHookCommand(project.id, hookId, principal.userId ?? null));
  }

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/hooks/:hook_id/deliveries')
  @RequireScopes('project:read')
  @ApiQuery({ name: 'status', required: false, enum: ['failed'], description: 'only deliveries that failed or are failing (waiting for a retry)' })
  async deliveryLog(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('hook_id') hookId: string,
    @Paginate() page: Pagination,
    @Query('status') status?: string,
  ) {
    if (status !== undefined && status !== 'failed') throw new BadRequestException({ detail: 'status must be failed' });
    const project = await this.project(organization, projectIdOrSlug);
    const hook = await this.hook(project, hookId);
    const rows = page.respond(
      await this.deliveries.list(SERVICE_HOOK_TARGET, hook.id, { failedOnly: status === 'failed', offset: page.offset, limit: page.fetchLimit }),
    );
    const attempts = await this.deliveries.attempts(
      rows.map((row) => row.id),
      ATTEMPTS_PER_DELIVERY,
    );
    return rows.map((row) =>
      serializeDelivery(
        row,
        attempts.filter((attempt) => String(attempt.delivery_id) === String(row.id)),
      ),
    );
  }

  @Post('projects/:organization_id_or_slug/:project_id_or_slug/hooks/:hook_id/deliveries/:delivery_id/redeliver')
  @HttpCode(202)
  @RequireScopes('project:write')
  async redeliver(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('project_id_or_slug') projectIdOrSlug: string,
    @Param('hook_id') hookId: string,
    @Param('delivery_id') deliveryId: string,
  ) {
    const project = await this.project(organization, projectIdOrSlug);
    await this.hook(project, hookId);
    const guid = await this.commands.execute<RedeliverWebhookCommand, string>(new RedeliverWebhookCommand(project.id, hookId, deliveryId));
    const delivery = (await this.deliveries.find(this.database, SERVICE_HOOK_TARGET, hookId, guid))!;
    return serializeDelivery(delivery, await this.deliveries.attempts([delivery.id], ATTEMPTS_PER_DELIVERY));
  }

  /** The project, when it has service hooks at all (Sentry answers 403 otherwise). */
  private async project(organization: OrganizationAccess, idOrSlug: string): Promise<ProjectSummary> {
    const project = await requireProject(this.queries, organization.id, idOrSlug);
    if (!project.features.includes(SERVICE_HOOKS_FEATURE)) throw new ForbiddenException({ detail: 'You do not have that feature enabled' });
    return project;
  }

  private async hook(project: ProjectSummary, hookId: string): Promise<ServiceHookRow> {
    const hook = await this.hooks.find(this.database, project.id, hookId);
    if (!hook) throw new NotFoundException();
    return hook;
  }
}
