import type { EventMetadata } from '@faultline/kernel';

/** Ends a membership (and its team memberships); the user account stays. */
export class RemoveMemberCommand {
  constructor(
    readonly organizationId: string,
    readonly memberId: string,
    readonly expectedVersion?: number,
    readonly metadata?: EventMetadata,
    /** A member removing another: refused when the removed member's role is beyond the remover's (an identity provider has no such limit). */
    readonly actorScopes?: ReadonlySet<string>,
  ) {}
}
