import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberProvisioned, memberStream } from '../../../domain/identity.events';
import { type ProvisionedMember, userNameFromProfile, validateProfile } from '../../../domain/member-profile';
import { ProvisioningRepository } from '../../../infrastructure/provisioning.repository';
import { ProvisionMemberCommand } from './provision-member.command';

@CommandHandler(ProvisionMemberCommand)
export class ProvisionMemberHandler implements ICommandHandler<ProvisionMemberCommand, ProvisionedMember> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProvisioningRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, profile, metadata }: ProvisionMemberCommand): Promise<ProvisionedMember> {
    const valid = validateProfile(profile);
    return this.database.transaction(async (tx) => {
      const member =
        (await this.repository.insertMemberWithUser(tx, organizationId, valid, userNameFromProfile(valid))) ??
        (await this.repository.insertMemberOfUser(
          tx,
          organizationId,
          await this.repository.findOrCreateUser(tx, organizationId, valid.userName, userNameFromProfile(valid)),
          valid,
        ));
      if (!member) throw DomainError.conflict('User already exists in the database.');
      const { memberId, userId } = member;
      await this.events.record(
        tx,
        memberStream(memberId),
        MEMBER_STREAM_TYPE,
        [memberProvisioned({ organizationId, memberId, userId, role: valid.role, active: valid.active, externalId: valid.externalId })],
        { metadata, expectedVersion: 'no_stream' },
      );
      return member;
    });
  }
}
