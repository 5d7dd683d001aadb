export class RenameSecurityKeyCommand {
  constructor(
    readonly userId: string,
    readonly authenticatorId: string,
    /** The key's credential id (Sentry's `key_handle`). */
    readonly keyHandle: string,
    readonly name: string,
  ) {}
}
