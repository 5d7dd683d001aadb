/** Uninstalls: revokes every token of the installation and tells the app (`installation.deleted`). */
export class UninstallSentryAppCommand {
  constructor(
    readonly installationUuid: string,
    readonly userId: string | null,
  ) {}
}
