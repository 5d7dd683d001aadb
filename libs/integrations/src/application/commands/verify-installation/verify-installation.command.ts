/** `PUT {"status": "installed"}`: the app confirms a pending install. */
export class VerifyInstallationCommand {
  constructor(readonly installationUuid: string) {}
}
