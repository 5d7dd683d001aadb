import type { EventMetadata } from '@faultline/kernel';

/** Deletes a team and its memberships; its projects stay with the organization. */
export class DeleteTeamCommand {
  constructor(
    readonly organizationId: string,
    readonly teamId: string,
    readonly expectedVersion?: number,
    readonly metadata?: EventMetadata,
  ) {}
}
