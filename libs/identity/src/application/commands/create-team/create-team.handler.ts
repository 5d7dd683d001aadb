import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DomainEvent, DomainError, isValidSlug, slugify } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { TEAM_STREAM_TYPE, teamCreated, teamMemberAdded, teamStream } from '../../../domain/identity.events';
import { IdentityRepository } from '../../../infrastructure/identity.repository';
import { CreateTeamCommand } from './create-team.command';

@CommandHandler(CreateTeamCommand)
export class CreateTeamHandler implements ICommandHandler<CreateTeamCommand, string> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, name, slug: requestedSlug, creatorUserId }: CreateTeamCommand): Promise<string> {
    if (!name && !requestedSlug) throw DomainError.invalid('name or slug is required', { errors: { name: ['name or slug is required'] } });
    const slug = requestedSlug ?? slugify(name as string);
    if (!isValidSlug(slug)) throw DomainError.invalid(`slug: "${slug}" must be lowercase letters, numbers, - or _, and not only digits`);
    return this.database.transaction(async (tx) => {
      if (await this.repository.slugTaken(tx, 'teams', slug, organizationId)) {
        throw DomainError.conflict('A team with this slug already exists.');
      }
      const teamId = await this.repository.insertTeam(tx, { organizationId, slug, name: name ?? slug });
      const events: DomainEvent[] = [teamCreated({ organizationId, teamId, slug, name: name ?? slug })];
      const member = creatorUserId ? await this.repository.findMemberByUser(tx, organizationId, creatorUserId) : undefined;
      if (member && (await this.repository.addTeamMember(tx, teamId, member.id))) {
        events.push(teamMemberAdded({ organizationId, teamId, memberId: member.id }));
      }
      await this.events.record(tx, teamStream(teamId), TEAM_STREAM_TYPE, events);
      return teamId;
    });
  }
}
