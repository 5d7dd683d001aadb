import type { CommitInput, ReleaseChanges } from '../../../infrastructure/releases.repository';

/** Creates a release of the organization for these projects, or adds the projects to the existing one. */
export class CreateReleaseCommand {
  constructor(
    readonly organizationId: string,
    readonly version: string,
    readonly projectIds: readonly string[],
    readonly changes: ReleaseChanges,
    readonly commits: readonly CommitInput[] | undefined,
    /** The commits are `refs`: heads of repositories the organization must have already. */
    readonly commitsFromRefs: boolean,
    readonly actorId: string | null,
  ) {}
}
