import type { EventMetadata } from '@faultline/kernel';
import type { MemberProfile, ProvisionedMember } from '../../../domain/member-profile';

/**
 * Changes a member's profile (an identity provider's replace or patch). `decide` computes the new
 * profile from the current one while the member is locked, so concurrent changes of one member
 * apply one after the other and none is lost. With `expectedVersion` (If-Match) the change is made
 * only if the member is still at that version. Answers the member as changed.
 */
export class UpdateMemberProfileCommand {
  constructor(
    readonly organizationId: string,
    readonly memberId: string,
    readonly decide: (current: ProvisionedMember) => MemberProfile,
    readonly expectedVersion?: number,
    readonly metadata?: EventMetadata,
  ) {}
}
