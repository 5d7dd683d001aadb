import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Put, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ChangeTeamCommand, DeleteTeamCommand, ProvisionTeamCommand } from '@faultline/identity';
import { APP_CONFIG, type AppConfig, Database, Public } from '@faultline/platform';
import type { FastifyReply } from 'fastify';
import { groupChanges, groupReplacement, memberValues } from '../domain/scim-group';
import { ScimError } from '../domain/scim-error';
import { patchOperations } from '../domain/scim-user';
import { withoutCoreSchema } from '../domain/scim-schemas';
import { type Reference, ScimReadRepository, type ScimGroupRow } from '../infrastructure/scim-read.repository';
import { CurrentScimOrganization, ScimAuthGuard, type ScimOrganization } from './scim-auth.guard';
import { ScimExceptionFilter } from './scim-exception.filter';
import { leavesOut, parseListQuery, parseProjection } from './scim-list-query';
import { jsonObject, SCIM_METADATA } from './scim-request';
import { etag, listResponse, project, scimGroup, versionFromIfMatch } from './scim.serializers';

function attribute(document: Record<string, unknown>, name: string): unknown {
  return Object.entries(document).find(([key]) => withoutCoreSchema(key).toLowerCase() === name)?.[1];
}

/** SCIM Groups: the organization's teams. */
@ApiTags('SCIM')
@ApiBearerAuth()
@Public()
@UseGuards(ScimAuthGuard)
@UseFilters(ScimExceptionFilter)
@Controller('api/0')
export class ScimGroupsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly read: ScimReadRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Entra ID looks groups up with `excludedAttributes=members&filter=displayName eq "..."`. */
  @Get('organizations/:organization_id_or_slug/scim/v2/Groups')
  async list(@CurrentScimOrganization() organization: ScimOrganization, @Query() query: Record<string, unknown>) {
    const request = parseListQuery(query);
    const page = await this.read.listGroups(this.database, organization.id, request.filter, request.startIndex - 1, request.count);
    const members = leavesOut(request, 'members')
      ? undefined
      : await this.read.membersOfGroups(
          this.database,
          page.rows.map((row) => row.id),
        );
    const resources = page.rows.map((row) => project(this.resource(organization, row, members?.get(row.id)), request.attributes, request.excludedAttributes));
    return listResponse(resources, page.total, request.startIndex);
  }

  @Get('organizations/:organization_id_or_slug/scim/v2/Groups/:team_id')
  async detail(
    @CurrentScimOrganization() organization: ScimOrganization,
    @Param('team_id') teamId: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const projection = parseProjection(query);
    const row = await this.find(organization, teamId);
    const members = leavesOut(projection, 'members') ? undefined : (await this.read.membersOfGroups(this.database, [row.id])).get(row.id);
    void reply.header('etag', etag(row.version));
    return project(this.resource(organization, row, members), projection.attributes, projection.excludedAttributes);
  }

  @Post('organizations/:organization_id_or_slug/scim/v2/Groups')
  @HttpCode(201)
  async create(@CurrentScimOrganization() organization: ScimOrganization, @Body() raw: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const document = jsonObject(raw);
    const name = attribute(document, 'displayname');
    if (typeof name !== 'string') throw ScimError.badRequest('invalidValue', 'displayName is required.');
    const externalId = attribute(document, 'externalid');
    const teamId = await this.commands.execute<ProvisionTeamCommand, string>(
      new ProvisionTeamCommand(
        organization.id,
        name,
        typeof externalId === 'string' && externalId ? externalId : null,
        memberValues(attribute(document, 'members')),
        SCIM_METADATA,
      ),
    );
    const resource = await this.respond(organization, teamId, reply);
    void reply.header('location', (resource.meta as { location: string }).location);
    return resource;
  }

  @Put('organizations/:organization_id_or_slug/scim/v2/Groups/:team_id')
  async replace(
    @CurrentScimOrganization() organization: ScimOrganization,
    @Param('team_id') teamId: string,
    @Body() raw: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const changes = groupReplacement(jsonObject(raw));
    const team = await this.find(organization, teamId);
    await this.commands.execute(new ChangeTeamCommand(organization.id, team.id, changes, versionFromIfMatch(ifMatch), SCIM_METADATA));
    return this.respond(organization, team.id, reply);
  }

  /** Renames and member changes; answers 204 as Entra ID expects (Okta accepts it too). */
  @Patch('organizations/:organization_id_or_slug/scim/v2/Groups/:team_id')
  @HttpCode(204)
  async patch(
    @CurrentScimOrganization() organization: ScimOrganization,
    @Param('team_id') teamId: string,
    @Body() raw: unknown,
    @Headers('if-match') ifMatch: string | undefined,
  ) {
    const changes = groupChanges(patchOperations(raw));
    const team = await this.find(organization, teamId);
    await this.commands.execute(new ChangeTeamCommand(organization.id, team.id, changes, versionFromIfMatch(ifMatch), SCIM_METADATA));
  }

  @Delete('organizations/:organization_id_or_slug/scim/v2/Groups/:team_id')
  @HttpCode(204)
  async remove(@CurrentScimOrganization() organization: ScimOrganization, @Param('team_id') teamId: string, @Headers('if-match') ifMatch: string | undefined) {
    const team = await this.find(organization, teamId);
    await this.commands.execute(new DeleteTeamCommand(organization.id, team.id, versionFromIfMatch(ifMatch), SCIM_METADATA));
  }

  private async find(organization: ScimOrganization, teamId: string): Promise<ScimGroupRow> {
    const row = await this.read.findGroup(this.database, organization.id, teamId);
    if (!row) throw ScimError.notFound();
    return row;
  }

  private async respond(organization: ScimOrganization, teamId: string, reply: FastifyReply) {
    const row = await this.find(organization, teamId);
    const members = await this.read.membersOfGroups(this.database, [row.id]);
    void reply.header('etag', etag(row.version));
    return this.resource(organization, row, members.get(row.id));
  }

  private resource(organization: ScimOrganization, row: ScimGroupRow, members: Reference[] | undefined) {
    return scimGroup(row, members, `${this.config.publicUrl}/api/0/organizations/${organization.slug}/scim/v2/Groups/${row.id}`);
  }
}
