/** Adds one file to a release, as the legacy release-file API uploads them (`name` is its URL, e.g. `~/app.js`). */
export class UploadReleaseFileCommand {
  constructor(
    readonly organizationId: string,
    readonly version: string,
    readonly file: { name: string; dist: string | null; headers: Readonly<Record<string, string>>; content: Buffer },
  ) {}
}
