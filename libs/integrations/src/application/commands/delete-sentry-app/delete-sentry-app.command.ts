/** Deletes an app: uninstalled everywhere (its tokens revoked), its receiver removed. */
export class DeleteSentryAppCommand {
  constructor(
    readonly slug: string,
    readonly userId: string | null,
  ) {}
}
