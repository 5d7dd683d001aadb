import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectKeyUpdated, projectStream } from '../../../domain/project.events';
import { projectKeySettings, type ProjectKeyRow, type ProjectKeySettings, ProjectsRepository } from '../../../infrastructure/projects.repository';
import { UpdateProjectKeyCommand } from './update-project-key.command';

/** Renames, disables or enables a DSN key, or changes its rate limit; records what changed. */
@CommandHandler(UpdateProjectKeyCommand)
export class UpdateProjectKeyHandler implements ICommandHandler<UpdateProjectKeyCommand, ProjectKeyRow> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ projectId, publicKey, changes }: UpdateProjectKeyCommand): Promise<ProjectKeyRow> {
    return this.database.transaction(async (tx) => {
      const current = await this.repository.lockKey(tx, projectId, publicKey);
      if (!current) throw DomainError.notFound();
      const before = projectKeySettings(current);
      const after: ProjectKeySettings = {
        name: changes.name ?? before.name,
        isActive: changes.isActive ?? before.isActive,
        rateLimit: changes.rateLimit === undefined ? before.rateLimit : changes.rateLimit,
        browserSdkVersion: changes.browserSdkVersion ?? before.browserSdkVersion,
        dynamicSdkLoaderOptions: { ...before.dynamicSdkLoaderOptions, ...changes.dynamicSdkLoaderOptions },
      };
      const changed = Object.fromEntries(
        Object.entries(after).filter(([name, value]) => JSON.stringify(before[name as keyof ProjectKeySettings]) !== JSON.stringify(value)),
      );
      if (Object.keys(changed).length === 0) return current;
      const updated = await this.repository.updateKey(tx, current.id, after);
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [projectKeyUpdated({ projectId, publicKey, changes: changed })]);
      return updated;
    });
  }
}
