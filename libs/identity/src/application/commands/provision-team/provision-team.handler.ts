import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DomainEvent, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { TEAM_STREAM_TYPE, teamCreated, teamMembersChanged, teamStream } from '../../../domain/identity.events';
import { teamNameAndSlug } from '../../../domain/team-changes';
import { IdentityRepository } from '../../../infrastructure/identity.repository';
import { ProvisioningRepository } from '../../../infrastructure/provisioning.repository';
import { ProvisionTeamCommand } from './provision-team.command';

@CommandHandler(ProvisionTeamCommand)
export class ProvisionTeamHandler implements ICommandHandler<ProvisionTeamCommand, string> {
  constructor(
    private readonly database: Database,
    private readonly identity: IdentityRepository,
    private readonly repository: ProvisioningRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, name: requestedName, externalId, memberIds, metadata }: ProvisionTeamCommand): Promise<string> {
    const { name, slug } = teamNameAndSlug(requestedName);
    const members = [...new Set(memberIds)];
    return this.database.transaction(async (tx) => {
      if (await this.identity.slugTaken(tx, 'teams', slug, organizationId)) {
        throw DomainError.conflict('A team with this slug already exists.');
      }
      const unknown = await this.repository.unknownMemberIds(tx, organizationId, members);
      if (unknown.length) throw DomainError.invalid(`Unknown member id(s): ${unknown.join(', ')}`);
      const teamId = await this.repository.insertTeam(tx, { organizationId, slug, name, externalId });
      await this.repository.addTeamMembers(tx, teamId, members);
      const events: DomainEvent[] = [teamCreated({ organizationId, teamId, slug, name })];
      if (members.length) events.push(teamMembersChanged({ organizationId, teamId, added: members, removed: [] }));
      await this.events.record(tx, teamStream(teamId), TEAM_STREAM_TYPE, events, { metadata, expectedVersion: 'no_stream' });
      return teamId;
    });
  }
}
