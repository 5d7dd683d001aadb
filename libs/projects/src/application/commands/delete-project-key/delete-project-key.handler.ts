import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectKeyDeleted, projectStream } from '../../../domain/project.events';
import { ProjectsRepository } from '../../../infrastructure/projects.repository';
import { DeleteProjectKeyCommand } from './delete-project-key.command';

/** Deletes a DSN key: SDKs using it get 401 from then on. */
@CommandHandler(DeleteProjectKeyCommand)
export class DeleteProjectKeyHandler implements ICommandHandler<DeleteProjectKeyCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ projectId, publicKey }: DeleteProjectKeyCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      if (!(await this.repository.deleteKey(tx, projectId, publicKey))) throw DomainError.notFound();
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [projectKeyDeleted({ projectId, publicKey })]);
    });
  }
}
