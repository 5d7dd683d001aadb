import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, isValidSlug } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectStream, projectUpdated } from '../../../domain/project.events';
import { ProjectsRepository } from '../../../infrastructure/projects.repository';
import { UpdateProjectCommand } from './update-project.command';

/**
 * Changes a project. Bookmarking needs only read access (it is the caller's own preference),
 * other fields need project:write, and features need an organization owner.
 */
@CommandHandler(UpdateProjectCommand)
export class UpdateProjectHandler implements ICommandHandler<UpdateProjectCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProjectsRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, projectId, changes, actor }: UpdateProjectCommand): Promise<void> {
    const { isBookmarked, ...fields } = changes;
    if (Object.keys(fields).length && !actor.canWrite) throw DomainError.forbidden();
    if (fields.features !== undefined && !actor.isOwner) {
      throw DomainError.forbidden('Only an organization owner can change project features.');
    }
    if (fields.slug !== undefined && !isValidSlug(fields.slug)) {
      throw DomainError.invalid(`slug: "${fields.slug}" must be lowercase letters, numbers, - or _, and not only digits`);
    }
    if (isBookmarked !== undefined && !actor.userId) {
      throw DomainError.invalid('isBookmarked: only a user can bookmark a project');
    }
    await this.database.transaction(async (tx) => {
      const current = await this.repository.lock(tx, organizationId, projectId);
      if (!current) throw DomainError.notFound();
      if (fields.slug && fields.slug !== current.slug && (await this.repository.slugTaken(tx, organizationId, fields.slug))) {
        throw DomainError.conflict('A project with this slug already exists.');
      }
      const normalised = { ...fields, features: fields.features && [...new Set(fields.features)].sort() };
      const changed = Object.fromEntries(
        Object.entries(normalised).filter(
          ([key, value]) => value !== undefined && JSON.stringify(current[key as keyof typeof current]) !== JSON.stringify(value),
        ),
      );
      if (Object.keys(changed).length) {
        await this.repository.update(tx, projectId, changed);
        await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [projectUpdated({ projectId, organizationId, changes: changed })]);
      }
      if (isBookmarked !== undefined && actor.userId) await this.repository.setBookmark(tx, projectId, actor.userId, isBookmarked);
    });
  }
}
