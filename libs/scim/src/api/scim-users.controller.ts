import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Put, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type ProvisionedMember, ProvisionMemberCommand, RemoveMemberCommand, UpdateMemberProfileCommand } from '@faultline/identity';
import { APP_CONFIG, type AppConfig, Database, Public } from '@faultline/platform';
import type { FastifyReply } from 'fastify';
import { ScimError } from '../domain/scim-error';
import { patchOperations, patchProfile, profileFromDocument } from '../domain/scim-user';
import { type Reference, ScimReadRepository, type ScimUserRow } from '../infrastructure/scim-read.repository';
import { CurrentScimOrganization, ScimAuthGuard, type ScimOrganization } from './scim-auth.guard';
import { ScimExceptionFilter } from './scim-exception.filter';
import { leavesOut, parseListQuery, parseProjection } from './scim-list-query';
import { jsonObject, SCIM_METADATA } from './scim-request';
import { etag, listResponse, project, scimUser, versionFromIfMatch } from './scim.serializers';

/** A member as the `scim_users` view shows it. */
function userRow(organization: ScimOrganization, member: ProvisionedMember): ScimUserRow {
  return {
    id: member.memberId,
    organization_id: organization.id,
    user_id: member.userId,
    user_name: member.userName,
    role: member.role,
    active: member.active,
    external_id: member.externalId,
    display_name: member.displayName,
    name_parts: member.name,
    emails: [...member.emails],
    version: member.version,
    created: member.created,
    last_modified: member.lastModified,
  };
}

/** SCIM Users: the organization's members (RFC 7644 over identity's members). */
@ApiTags('SCIM')
@ApiBearerAuth()
@Public()
@UseGuards(ScimAuthGuard)
@UseFilters(ScimExceptionFilter)
@Controller('api/0')
export class ScimUsersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly database: Database,
    private readonly read: ScimReadRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('organizations/:organization_id_or_slug/scim/v2/Users')
  async list(@CurrentScimOrganization() organization: ScimOrganization, @Query() query: Record<string, unknown>) {
    const request = parseListQuery(query);
    const page = await this.read.listUsers(
      this.database,
      organization.id,
      request.filter,
      request.startIndex - 1,
      request.count,
      !leavesOut(request, 'groups'),
    );
    const resources = page.rows.map((row) => project(this.resource(organization, row, row.groups), request.attributes, request.excludedAttributes));
    return listResponse(resources, page.total, request.startIndex);
  }

  @Get('organizations/:organization_id_or_slug/scim/v2/Users/:member_id')
  async detail(
    @CurrentScimOrganization() organization: ScimOrganization,
    @Param('member_id') memberId: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const projection = parseProjection(query);
    const row = await this.read.findUser(this.database, organization.id, memberId);
    if (!row) throw ScimError.notFound();
    return project(this.respond(organization, row, reply), projection.attributes, projection.excludedAttributes);
  }

  @Post('organizations/:organization_id_or_slug/scim/v2/Users')
  @HttpCode(201)
  async create(@CurrentScimOrganization() organization: ScimOrganization, @Body() raw: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const profile = profileFromDocument(jsonObject(raw), { active: true, role: 'member' });
    const member = await this.commands.execute<ProvisionMemberCommand, ProvisionedMember>(new ProvisionMemberCommand(organization.id, profile, SCIM_METADATA));
    // A new member is in no group yet: the command's answer is the whole resource, no read needed.
    const resource = this.respond(organization, { ...userRow(organization, member), groups: [] }, reply);
    void reply.header('location', (resource.meta as { location: string }).location);
    return resource;
  }

  @Put('organizations/:organization_id_or_slug/scim/v2/Users/:member_id')
  async replace(
    @CurrentScimOrganization() organization: ScimOrganization,
    @Param('member_id') memberId: string,
    @Body() raw: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const document = jsonObject(raw);
    await this.commands.execute<UpdateMemberProfileCommand, ProvisionedMember>(
      new UpdateMemberProfileCommand(
        organization.id,
        memberId,
        (current) => profileFromDocument(document, { active: current.active, role: current.role }, current.role),
        versionFromIfMatch(ifMatch),
        SCIM_METADATA,
      ),
    );
    return this.respond(organization, await this.reread(organization, memberId), reply);
  }

  /** Okta deactivates with a path-less `{"active": false}`; Entra ID sends ops in any case and string booleans. */
  @Patch('organizations/:organization_id_or_slug/scim/v2/Users/:member_id')
  async patch(
    @CurrentScimOrganization() organization: ScimOrganization,
    @Param('member_id') memberId: string,
    @Body() raw: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const operations = patchOperations(raw);
    await this.commands.execute<UpdateMemberProfileCommand, ProvisionedMember>(
      new UpdateMemberProfileCommand(organization.id, memberId, (current) => patchProfile(current, operations), versionFromIfMatch(ifMatch), SCIM_METADATA),
    );
    return this.respond(organization, await this.reread(organization, memberId), reply);
  }

  /** Removes the member from the organization; the user account stays. */
  @Delete('organizations/:organization_id_or_slug/scim/v2/Users/:member_id')
  @HttpCode(204)
  async remove(
    @CurrentScimOrganization() organization: ScimOrganization,
    @Param('member_id') memberId: string,
    @Headers('if-match') ifMatch: string | undefined,
  ) {
    await this.commands.execute(new RemoveMemberCommand(organization.id, memberId, versionFromIfMatch(ifMatch), SCIM_METADATA));
  }

  private async reread(organization: ScimOrganization, memberId: string): Promise<ScimUserRow & { groups: Reference[] }> {
    const row = await this.read.findUser(this.database, organization.id, memberId);
    if (!row) throw ScimError.notFound();
    return row;
  }

  private respond(organization: ScimOrganization, row: ScimUserRow & { groups: Reference[] }, reply: FastifyReply) {
    void reply.header('etag', etag(row.version));
    return this.resource(organization, row, row.groups);
  }

  private resource(organization: ScimOrganization, row: ScimUserRow, groups: Reference[] | undefined) {
    return scimUser(row, groups, `${this.config.publicUrl}/api/0/organizations/${organization.slug}/scim/v2/Users/${row.id}`);
  }
}
