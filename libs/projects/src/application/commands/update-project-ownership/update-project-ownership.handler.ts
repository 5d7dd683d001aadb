import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectOwnershipUpdated, projectStream } from '../../../domain/project.events';
import { ownershipChanges, planOwnershipUpdate, updatedOwnership } from '../../../domain/project-ownership';
import { ProjectOwnershipRepository } from '../../../infrastructure/project-ownership.repository';
import { ProjectsRepository } from '../../../infrastructure/projects.repository';
import { UpdateProjectOwnershipCommand } from './update-project-ownership.command';

/**
 * Saves a project's ownership rules and options (Sentry's PUT …/ownership/): the body is checked
 * before anything is read, the owners against the organization's teams and members in the
 * transaction that writes, and a save that changes nothing records nothing.
 */
@CommandHandler(UpdateProjectOwnershipCommand)
export class UpdateProjectOwnershipHandler implements ICommandHandler<UpdateProjectOwnershipCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly projects: ProjectsRepository,
    private readonly ownership: ProjectOwnershipRepository,
    private readonly events: EventRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, projectId, update }: UpdateProjectOwnershipCommand): Promise<void> {
    const planned = planOwnershipUpdate(update);
    const at = this.clock.now().toISOString();
    await this.database.transaction(async (tx) => {
      if (!(await this.projects.lock(tx, organizationId, projectId))) throw DomainError.notFound();
      const current = await this.ownership.find(tx, projectId, true);
      const ownerIds = planned.rules
        ? await this.ownership.ownerIds(
            tx,
            organizationId,
            planned.rules.flatMap((rule) => rule.owners),
          )
        : new Map<string, string>();
      const next = updatedOwnership(current, planned, ownerIds);
      const changes = ownershipChanges(current, next);
      if (Object.keys(changes).length === 0) return;
      await this.ownership.save(tx, projectId, next, at);
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [projectOwnershipUpdated({ projectId, organizationId, changes })]);
    });
  }
}
