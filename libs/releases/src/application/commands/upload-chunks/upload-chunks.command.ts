/** Stores uploaded chunks of the organization (each already checked against its SHA-1). */
export class UploadChunksCommand {
  constructor(
    readonly organizationId: string,
    readonly chunks: ReadonlyArray<{ checksum: string; content: Buffer }>,
  ) {}
}
