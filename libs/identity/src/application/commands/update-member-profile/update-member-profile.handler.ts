import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DomainEvent, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberDeactivated, memberReactivated, memberStream, memberUpdated } from '../../../domain/identity.events';
import { changedAttributes, type ProvisionedMember, validateProfile } from '../../../domain/member-profile';
import { VersionMismatchError } from '../../../domain/version-mismatch';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { ProvisioningRepository } from '../../../infrastructure/provisioning.repository';
import { UpdateMemberProfileCommand } from './update-member-profile.command';

@CommandHandler(UpdateMemberProfileCommand)
export class UpdateMemberProfileHandler implements ICommandHandler<UpdateMemberProfileCommand, ProvisionedMember> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProvisioningRepository,
    private readonly events: EventRecorder,
    private readonly cache: AuthCache,
  ) {}

  async execute({ organizationId, memberId, decide, expectedVersion, metadata }: UpdateMemberProfileCommand): Promise<ProvisionedMember> {
    return this.database.transaction(async (tx) => {
      const current = await this.repository.lockMember(tx, organizationId, memberId);
      if (!current) throw DomainError.notFound();
      if (expectedVersion !== undefined && expectedVersion !== current.version) throw new VersionMismatchError(current.version);
      const next = validateProfile(decide(current));
      const changes = changedAttributes(current, next);
      if (Object.keys(changes).length === 0) return current;

      const losesOwnership = current.role === 'owner' && current.active && (next.role !== 'owner' || !next.active);
      if (losesOwnership && !(await this.repository.otherActiveOwnerExists(tx, organizationId, memberId))) {
        throw DomainError.forbidden('The last owner of an organization cannot be deactivated or lose the owner role.');
      }
      // userName is the membership's; the account's sign-in e-mail follows only when this organization alone holds the account.
      if ('userName' in changes) {
        if (await this.repository.userNameTakenByAnother(tx, organizationId, next.userName, memberId)) {
          throw DomainError.conflict('Another member already has this userName.');
        }
        if (await this.repository.ownsAccount(tx, organizationId, current.userId)) {
          if (await this.repository.emailTakenByAnother(tx, next.userName, current.userId))
            throw DomainError.conflict('Another user already has this userName.');
          await this.repository.changeUserEmail(tx, current.userId, next.userName);
        }
      }
      const { version, date_updated: lastModified } = await this.repository.updateMember(tx, memberId, next);

      const { active, ...attributes } = changes;
      const events: DomainEvent[] = [];
      if (Object.keys(attributes).length) events.push(memberUpdated({ organizationId, memberId, changes: attributes }));
      if (active === false) events.push(memberDeactivated({ organizationId, memberId, userId: current.userId }));
      if (active === true) events.push(memberReactivated({ organizationId, memberId, userId: current.userId }));
      await this.events.record(tx, memberStream(memberId), MEMBER_STREAM_TYPE, events, { metadata });
      // Access follows the active flag and the role at once in this process (others within the cache's TTL).
      if ('active' in changes || 'role' in changes || 'userName' in changes) tx.afterCommit(() => this.cache.clear());
      return { ...next, memberId, userId: current.userId, version, created: current.created, lastModified };
    });
  }
}
