import type { EventMetadata } from '@faultline/kernel';

/** An identity provider creates a team (its slug derived from the name) with its first members; answers the team id. */
export class ProvisionTeamCommand {
  constructor(
    readonly organizationId: string,
    readonly name: string,
    readonly externalId: string | null,
    readonly memberIds: readonly string[],
    readonly metadata?: EventMetadata,
  ) {}
}
