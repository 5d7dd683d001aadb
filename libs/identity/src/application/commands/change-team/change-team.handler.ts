import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DomainEvent, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { TEAM_STREAM_TYPE, teamMembersChanged, teamRenamed, teamStream, teamUpdated } from '../../../domain/identity.events';
import { applyTeamChanges, memberIdsAdded } from '../../../domain/team-changes';
import { VersionMismatchError } from '../../../domain/version-mismatch';
import { IdentityRepository } from '../../../infrastructure/identity.repository';
import { ProvisioningRepository } from '../../../infrastructure/provisioning.repository';
import { ChangeTeamCommand } from './change-team.command';

@CommandHandler(ChangeTeamCommand)
export class ChangeTeamHandler implements ICommandHandler<ChangeTeamCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly identity: IdentityRepository,
    private readonly repository: ProvisioningRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, teamId, changes, expectedVersion, metadata }: ChangeTeamCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const team = await this.repository.lockTeam(tx, organizationId, teamId);
      if (!team) throw DomainError.notFound();
      if (expectedVersion !== undefined && expectedVersion !== team.version) throw new VersionMismatchError(team.version);
      const unknown = await this.repository.unknownMemberIds(tx, organizationId, memberIdsAdded(changes));
      if (unknown.length) throw DomainError.invalid(`Unknown member id(s): ${unknown.join(', ')}`);

      const outcome = applyTeamChanges(
        { name: team.name, slug: team.slug, externalId: team.external_id, memberIds: await this.repository.teamMemberIds(tx, teamId) },
        changes,
      );
      const membersChanged = outcome.added.length > 0 || outcome.removed.length > 0;
      if (!outcome.renamed && !outcome.externalIdChanged && !membersChanged) return;
      if (outcome.slug !== team.slug && (await this.identity.slugTaken(tx, 'teams', outcome.slug, organizationId))) {
        throw DomainError.conflict('A team with this slug already exists.');
      }
      await this.repository.removeTeamMembers(tx, teamId, outcome.removed);
      await this.repository.addTeamMembers(tx, teamId, outcome.added);
      await this.repository.updateTeam(tx, teamId, outcome);

      const events: DomainEvent[] = [];
      if (outcome.renamed) {
        events.push(teamRenamed({ organizationId, teamId, name: outcome.name, slug: outcome.slug, previousName: team.name, previousSlug: team.slug }));
      }
      if (outcome.externalIdChanged) events.push(teamUpdated({ organizationId, teamId, changes: { externalId: outcome.externalId } }));
      if (membersChanged) events.push(teamMembersChanged({ organizationId, teamId, added: outcome.added, removed: outcome.removed }));
      await this.events.record(tx, teamStream(teamId), TEAM_STREAM_TYPE, events, { metadata });
    });
  }
}
