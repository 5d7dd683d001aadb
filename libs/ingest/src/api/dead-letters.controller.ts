import { Controller, Delete, Get, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { requireProject } from '@faultline/projects';
import { isNumericId } from '@faultline/kernel';
import { DeleteDeadLettersCommand } from '../application/commands/delete-dead-letters/delete-dead-letters.command';
import { RetryDeadLettersCommand } from '../application/commands/retry-dead-letters/retry-dead-letters.command';
import { deadLetterOf } from '../application/queries/list-dead-letters.handler';
import { type DeadLetter, ListDeadLettersQuery } from '../application/queries/list-dead-letters.query';
import { DeadLettersRepository } from '../infrastructure/dead-letters.repository';

/**
 * A project's accepted events that processing set aside. Project admins only: a dead letter is
 * the event exactly as the SDK sent it, and retrying or deleting one changes what is stored.
 */
@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/0')
export class DeadLettersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly database: Database,
    private readonly deadLetters: DeadLettersRepository,
  ) {}

  @Get('projects/:organization_id_or_slug/:project_id_or_slug/dead-letters')
  @RequireScopes('project:admin')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string, @Paginate() page: Pagination) {
    const projectId = await this.projectId(organization, idOrSlug);
    const letters = await this.queries.execute<ListDeadLettersQuery, DeadLetter[]>(new ListDeadLettersQuery({ projectId }, page.offset, page.fetchLimit));
    return page.respond(letters);
  }

  /** Every dead letter of the project back to the queue. */
  @Post('projects/:organization_id_or_slug/:project_id_or_slug/dead-letters/retry')
  @HttpCode(200)
  @RequireScopes('project:admin')
  async retryAll(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string) {
    const retried = await this.commands.execute<RetryDeadLettersCommand, number>(
      new RetryDeadLettersCommand({ projectId: await this.projectId(organization, idOrSlug) }),
    );
    return { retried };
  }

  /** With the event as the SDK sent it. */
  @Get('projects/:organization_id_or_slug/:project_id_or_slug/dead-letters/:dead_letter_id')
  @RequireScopes('project:admin')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string, @Param('dead_letter_id') id: string) {
    const row = await this.deadLetters.find(this.database, await this.projectId(organization, idOrSlug), deadLetterId(id));
    if (!row) throw new NotFoundException();
    return { ...deadLetterOf(row), payload: JSON.parse(row.payload) as unknown };
  }

  @Post('projects/:organization_id_or_slug/:project_id_or_slug/dead-letters/:dead_letter_id/retry')
  @HttpCode(200)
  @RequireScopes('project:admin')
  async retry(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string, @Param('dead_letter_id') id: string) {
    const scope = { projectId: await this.projectId(organization, idOrSlug), ids: [deadLetterId(id)] };
    const retried = await this.commands.execute<RetryDeadLettersCommand, number>(new RetryDeadLettersCommand(scope));
    if (retried === 0) throw new NotFoundException();
    return { retried };
  }

  @Delete('projects/:organization_id_or_slug/:project_id_or_slug/dead-letters/:dead_letter_id')
  @HttpCode(204)
  @RequireScopes('project:admin')
  async remove(@CurrentOrganization() organization: OrganizationAccess, @Param('project_id_or_slug') idOrSlug: string, @Param('dead_letter_id') id: string) {
    const scope = { projectId: await this.projectId(organization, idOrSlug), ids: [deadLetterId(id)] };
    if ((await this.commands.execute<DeleteDeadLettersCommand, number>(new DeleteDeadLettersCommand(scope))) === 0) throw new NotFoundException();
  }

  private async projectId(organization: OrganizationAccess, idOrSlug: string): Promise<string> {
    return (await requireProject(this.queries, organization.id, idOrSlug)).id;
  }
}

/** Ids are bigints: anything else names no dead letter. */
function deadLetterId(id: string): string {
  if (!isNumericId(id)) throw new NotFoundException();
  return id;
}
