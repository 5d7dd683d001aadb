import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { MEMBER_STREAM_TYPE, memberProvisioned, memberStream } from '../../../domain/identity.events';
import { userNameFromProfile, validateProfile } from '../../../domain/member-profile';
import { ProvisioningRepository } from '../../../infrastructure/provisioning.repository';
import { ProvisionMemberCommand } from './provision-member.command';

@CommandHandler(ProvisionMemberCommand)
export class ProvisionMemberHandler implements ICommandHandler<ProvisionMemberCommand, string> {
  constructor(
    private readonly database: Database,
    private readonly repository: ProvisioningRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute({ organizationId, profile, metadata }: ProvisionMemberCommand): Promise<string> {
    const valid = validateProfile(profile);
    return this.database.transaction(async (tx) => {
      const userId = await this.repository.findOrCreateUser(tx, valid.userName, userNameFromProfile(valid));
      if (await this.repository.memberOfUser(tx, organizationId, userId)) {
        throw DomainError.conflict('User already exists in the database.');
      }
      const memberId = await this.repository.insertMember(tx, organizationId, userId, valid);
      await this.events.record(
        tx,
        memberStream(memberId),
        MEMBER_STREAM_TYPE,
        [memberProvisioned({ organizationId, memberId, userId, role: valid.role, active: valid.active, externalId: valid.externalId })],
        { metadata },
      );
      return memberId;
    });
  }
}
