import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberRemoved, memberStream } from '../../../domain/identity.events';
import { mayManageRole } from '../../../domain/roles';
import { VersionMismatchError } from '../../../domain/version-mismatch';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { ProvisioningRepository } from '../../../infrastructure/provisioning.repository';
import { RemoveMemberCommand } from './remove-member.command';

@CommandHandler(RemoveMemberCommand)
export class RemoveMemberHandler implements ICommandHandler<RemoveMemberCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProvisioningRepository,
    private readonly events: EventRecorder,
    private readonly cache: AuthCache,
  ) {}

  async execute({ organizationId, memberId, expectedVersion, metadata, actorScopes }: RemoveMemberCommand): Promise<void> {
    await this.database.transaction(async (tx) => {
      const member = await this.repository.lockMember(tx, organizationId, memberId);
      if (!member) throw DomainError.notFound();
      if (expectedVersion !== undefined && expectedVersion !== member.version) throw new VersionMismatchError(member.version);
      if (actorScopes && !mayManageRole(actorScopes, member.role))
        throw DomainError.forbidden(`You do not have permission to remove a member with the ${member.role} role.`);
      if (member.role === 'owner' && member.active && !(await this.repository.otherActiveOwnerExists(tx, organizationId, memberId))) {
        throw DomainError.forbidden('The last owner of an organization cannot be removed.');
      }
      await this.repository.deleteMember(tx, memberId);
      await this.events.record(tx, memberStream(memberId), MEMBER_STREAM_TYPE, [memberRemoved({ organizationId, memberId, userId: member.userId })], {
        metadata,
      });
      tx.afterCommit(() => this.cache.clear());
    });
  }
}
