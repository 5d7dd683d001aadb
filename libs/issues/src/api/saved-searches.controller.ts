import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, CurrentPrincipal, type OrganizationAccess, type Principal, RequireScopes } from '@faultline/platform';
import { CreateSavedSearchCommand } from '../application/commands/create-saved-search/create-saved-search.command';
import { DeleteSavedSearchCommand } from '../application/commands/delete-saved-search/delete-saved-search.command';
import { UpdateSavedSearchCommand } from '../application/commands/update-saved-search/update-saved-search.command';
import type { SavedSearchActor } from '../domain';
import { type SavedSearchRow, SavedSearchesRepository } from '../infrastructure/saved-searches.repository';
import { CreateSavedSearchDto, UpdateSavedSearchDto } from './saved-searches.dto';

/** Sentry's saved search: `{id, type, name, query, sort, visibility, dateCreated, isGlobal, isPinned}`. */
export function serializeSavedSearch(row: SavedSearchRow) {
  return {
    id: row.id,
    type: 0,
    name: row.name,
    query: row.query,
    sort: row.sort,
    visibility: row.visibility,
    dateCreated: new Date(row.date_created).toISOString(),
    isGlobal: false,
    isPinned: false,
  };
}

/**
 * Sentry's saved issue searches. Every member (`org:read`) lists the organization's shared
 * searches and their own, and keeps their own; sharing one with the organization, or changing a
 * shared one, needs `org:write`. The list is bounded by the count budgets, so it is one page.
 */
@ApiTags('Issues')
@ApiBearerAuth()
@Controller('api/0/organizations/:organization_id_or_slug/searches')
export class SavedSearchesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly searches: SavedSearchesRepository,
  ) {}

  @Get()
  @RequireScopes('org:read')
  @ApiQuery({ name: 'type', required: false, description: "Sentry's search type: only 0 (issues)." })
  async list(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Query('type') type?: string) {
    if (type !== undefined && type !== '0') throw new BadRequestException({ detail: 'Invalid type: only issue searches (0) are kept.' });
    return (await this.searches.visibleTo(organization.id, principal.userId)).map(serializeSavedSearch);
  }

  @Post()
  @HttpCode(201)
  @RequireScopes('org:read')
  async create(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Body() body: CreateSavedSearchDto) {
    const { name, query, sort, visibility } = body;
    const row = await this.commands.execute<CreateSavedSearchCommand, SavedSearchRow>(
      new CreateSavedSearchCommand(organization.id, actorOf(organization, principal), { name, query, sort, visibility }),
    );
    return serializeSavedSearch(row);
  }

  @Put(':search_id')
  @RequireScopes('org:read')
  async update(
    @CurrentOrganization() organization: OrganizationAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('search_id') searchId: string,
    @Body() body: UpdateSavedSearchDto,
  ) {
    const { name, query, sort, visibility } = body;
    const row = await this.commands.execute<UpdateSavedSearchCommand, SavedSearchRow>(
      new UpdateSavedSearchCommand(organization.id, searchId, actorOf(organization, principal), { name, query, sort, visibility }),
    );
    return serializeSavedSearch(row);
  }

  @Delete(':search_id')
  @HttpCode(204)
  @RequireScopes('org:read')
  async remove(@CurrentOrganization() organization: OrganizationAccess, @CurrentPrincipal() principal: Principal, @Param('search_id') searchId: string) {
    await this.commands.execute(new DeleteSavedSearchCommand(organization.id, searchId, actorOf(organization, principal)));
  }
}

function actorOf(organization: OrganizationAccess, principal: Principal): SavedSearchActor {
  return { userId: principal.userId, canWriteOrganization: organization.scopes.has('org:write') };
}
