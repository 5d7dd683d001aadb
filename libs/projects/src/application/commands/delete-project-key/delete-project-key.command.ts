export class DeleteProjectKeyCommand {
  constructor(
    readonly projectId: string,
    /** The key's public part, its id in the API. */
    readonly publicKey: string,
  ) {}
}
