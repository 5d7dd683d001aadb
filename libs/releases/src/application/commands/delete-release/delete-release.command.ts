/**
 * Deletes a release with its deploys, commits and artifacts (its files, and the bundles attached to
 * it: a bundle attached to another release, or uploaded without one, stays); unused bytes are freed.
 */
export class DeleteReleaseCommand {
  constructor(
    readonly organizationId: string,
    readonly version: string,
    readonly actorId: string | null,
  ) {}
}
