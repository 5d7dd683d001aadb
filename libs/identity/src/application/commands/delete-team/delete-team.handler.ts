import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { TEAM_STREAM_TYPE, teamDeleted, teamStream } from '../../../domain/identity.events';
import { VersionMismatchError } from '../../../domain/version-mismatch';
import { ProvisioningRepository } from '../../../infrastructure/provisioning.repository';
import { DeleteTeamCommand } from './delete-team.command';

@CommandHandler(DeleteTeamCommand)
export class DeleteTeamHandler implements ICommandHandler<DeleteTeamCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProvisioningRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, teamId, expectedVersion, metadata }: DeleteTeamCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const team = await this.repository.lockTeam(tx, organizationId, teamId);
      if (!team) throw DomainError.notFound();
      if (expectedVersion !== undefined && expectedVersion !== team.version) throw new VersionMismatchError(team.version);
      await this.repository.deleteTeam(tx, teamId);
      await this.events.record(tx, teamStream(teamId), TEAM_STREAM_TYPE, [teamDeleted({ organizationId, teamId, slug: team.slug })], { metadata });
    });
  }
}
