import type { EventMetadata } from '@faultline/kernel';
import type { MemberProfile } from '../../../domain/member-profile';

/** An identity provider adds a member to an organization, creating the user account when needed; answers the member as stored. */
export class ProvisionMemberCommand {
  constructor(
    readonly organizationId: string,
    readonly profile: MemberProfile,
    readonly metadata?: EventMetadata,
  ) {}
}
