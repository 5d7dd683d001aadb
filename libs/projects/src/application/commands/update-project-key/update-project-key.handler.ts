import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectKeyUpdated, projectStream } from '../../../domain/project.events';
import { type ProjectKeyRow, ProjectsRepository } from '../../../infrastructure/projects.repository';
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
      const next: ProjectKeyRow = {
        ...current,
        label: changes.name ?? current.label,
        is_active: changes.isActive ?? current.is_active,
        rate_limit_count: changes.rateLimit === undefined ? current.rate_limit_count : (changes.rateLimit?.count ?? null),
        rate_limit_window: changes.rateLimit === undefined ? current.rate_limit_window : (changes.rateLimit?.window ?? null),
        browser_sdk_version: changes.browserSdkVersion ?? current.browser_sdk_version,
        dynamic_sdk_loader_options: { ...current.dynamic_sdk_loader_options, ...changes.dynamicSdkLoaderOptions },
      };
      const settings = (key: ProjectKeyRow) => ({
        name: key.label,
        isActive: key.is_active,
        rateLimit: key.rate_limit_count === null ? null : { count: key.rate_limit_count, window: key.rate_limit_window },
        browserSdkVersion: key.browser_sdk_version,
        dynamicSdkLoaderOptions: key.dynamic_sdk_loader_options,
      });
      const before = settings(current);
      const changed = Object.fromEntries(
        Object.entries(settings(next)).filter(([name, value]) => JSON.stringify(before[name as keyof typeof before]) !== JSON.stringify(value)),
      );
      if (Object.keys(changed).length === 0) return current;
      const updated = await this.repository.updateKey(tx, next);
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [projectKeyUpdated({ projectId, publicKey, changes: changed })]);
      return updated;
    });
  }
}
