import type { EventMetadata } from '@faultline/kernel';
import type { TeamChange } from '../../../domain/team-changes';

/**
 * Renames a team and changes its members, in the order given, in one transaction with the team
 * locked; with `expectedVersion` (If-Match) only if the team is still at that version. Members
 * added must belong to the organization; removing one that is not in the team changes nothing.
 */
export class ChangeTeamCommand {
  constructor(
    readonly organizationId: string,
    readonly teamId: string,
    readonly changes: readonly TeamChange[],
    readonly expectedVersion?: number,
    readonly metadata?: EventMetadata,
  ) {}
}
