import type { CommitInput, ReleaseChanges } from '../../../infrastructure/releases.repository';

/** Changes a release's ref, URL, dates or status, and replaces its commits when they are given. */
export class UpdateReleaseCommand {
  constructor(
    readonly organizationId: string,
    readonly version: string,
    readonly changes: ReleaseChanges,
    readonly commits: readonly CommitInput[] | undefined,
    /** The commits are `refs`: heads of repositories the organization must have already. */
    readonly commitsFromRefs: boolean,
    readonly actorId: string | null,
  ) {}
}
