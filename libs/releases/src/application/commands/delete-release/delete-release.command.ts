/** Deletes a release with its deploys and commits; its artifact bundles stay (they are found by debug ID too). */
export class DeleteReleaseCommand {
  constructor(
    readonly organizationId: string,
    readonly version: string,
    readonly actorId: string | null,
  ) {}
}
