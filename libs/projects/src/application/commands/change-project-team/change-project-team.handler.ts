import { CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { FindTeamQuery, type TeamSummary } from '@faultline/identity';
import { Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectStream, projectTeamAdded, projectTeamRemoved } from '../../../domain/project.events';
import { ProjectsRepository } from '../../../infrastructure/projects.repository';
import { ChangeProjectTeamCommand } from './change-project-team.command';

@CommandHandler(ChangeProjectTeamCommand)
export class ChangeProjectTeamHandler implements ICommandHandler<ChangeProjectTeamCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    private readonly events: EventRecorder,
    private readonly queries: QueryBus,
  ) {}

  async execute({ organizationId, projectId, teamIdOrSlug, add }: ChangeProjectTeamCommand): Promise<void> {
    const team = await this.queries.execute<FindTeamQuery, TeamSummary | null>(new FindTeamQuery(organizationId, teamIdOrSlug));
    if (!team) throw DomainError.notFound();
    await this.database.transaction(async (tx) => {
      if (!(await this.repository.lock(tx, organizationId, projectId))) throw DomainError.notFound();
      const changed = add ? await this.repository.addTeam(tx, projectId, team.id) : await this.repository.removeTeam(tx, projectId, team.id);
      if (!changed) return;
      const event = add ? projectTeamAdded({ projectId, organizationId, teamId: team.id }) : projectTeamRemoved({ projectId, organizationId, teamId: team.id });
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [event]);
    });
  }
}
