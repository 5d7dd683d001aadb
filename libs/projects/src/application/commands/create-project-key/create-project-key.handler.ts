import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomHex } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectKeyCreated, projectStream } from '../../../domain/project.events';
import { type ProjectKeyRow, ProjectsRepository } from '../../../infrastructure/projects.repository';
import { CreateProjectKeyCommand } from './create-project-key.command';

@CommandHandler(CreateProjectKeyCommand)
export class CreateProjectKeyHandler implements ICommandHandler<CreateProjectKeyCommand, ProjectKeyRow> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ projectId, label, rateLimit }: CreateProjectKeyCommand): Promise<ProjectKeyRow> {
    return this.database.transaction(async (tx) => {
      const key = await this.repository.insertKey(tx, { projectId, label, publicKey: randomHex(16), secretKey: randomHex(16), rateLimit });
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [projectKeyCreated({ projectId, publicKey: key.public_key, label })]);
      return key;
    });
  }
}
