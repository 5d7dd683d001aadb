import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectDeleted, projectStream } from '../../../domain/project.events';
import { ProjectsRepository } from '../../../infrastructure/projects.repository';
import { DeleteProjectCommand } from './delete-project.command';

@CommandHandler(DeleteProjectCommand)
export class DeleteProjectHandler implements ICommandHandler<DeleteProjectCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, projectId }: DeleteProjectCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const current = await this.repository.lock(tx, organizationId, projectId);
      if (!current) throw DomainError.notFound();
      await this.repository.delete(tx, projectId);
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [projectDeleted({ projectId, organizationId, slug: current.slug })]);
    });
  }
}
