import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { DomainError, isValidSlug, randomHex, slugify } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { FindTeamQuery, type TeamSummary } from '@faultline/identity';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { PROJECT_STREAM_TYPE, projectCreated, projectKeyCreated, projectStream } from '../../../domain/project.events';
import { ProjectsRepository } from '../../../infrastructure/projects.repository';
import { CreateProjectCommand } from './create-project.command';

/** Creates a project owned by a team, with the default features and a first DSN key. */
@CommandHandler(CreateProjectCommand)
export class CreateProjectHandler implements ICommandHandler<CreateProjectCommand, string> {
  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly repository: ProjectsRepository,
    private readonly events: EventRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(command: CreateProjectCommand): Promise<string> {
    const team = await this.queries.execute<FindTeamQuery, TeamSummary | null>(new FindTeamQuery(command.organizationId, command.teamIdOrSlug));
    if (!team) throw DomainError.notFound();
    const slug = command.slug ?? slugify(command.name);
    if (!isValidSlug(slug)) throw DomainError.invalid(`slug: "${slug}" must be lowercase letters, numbers, - or _, and not only digits`);
    return this.database.transaction(async (tx) => {
      if (await this.repository.slugTaken(tx, command.organizationId, slug)) {
        throw DomainError.conflict('A project with this slug already exists.');
      }
      const projectId = await this.repository.insert(tx, {
        organizationId: command.organizationId,
        slug,
        name: command.name,
        platform: command.platform,
        features: this.config.defaultProjectFeatures,
      });
      await this.repository.addTeam(tx, projectId, team.id);
      const key = await this.repository.insertKey(tx, { projectId, label: 'Default', publicKey: randomHex(16), secretKey: randomHex(16) });
      await this.events.record(tx, projectStream(projectId), PROJECT_STREAM_TYPE, [
        projectCreated({ projectId, organizationId: command.organizationId, teamId: team.id, slug, name: command.name, platform: command.platform }),
        projectKeyCreated({ projectId, publicKey: key.public_key, label: key.label }),
      ]);
      return projectId;
    });
  }
}
