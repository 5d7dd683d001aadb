/** Removes one file from a release's files. */
export class DeleteReleaseFileCommand {
  constructor(
    readonly organizationId: string,
    readonly version: string,
    readonly fileId: string,
  ) {}
}
