/** Installs an app (by slug) on an organization. */
export class InstallSentryAppCommand {
  constructor(
    readonly organization: { readonly id: string; readonly slug: string },
    readonly slug: string,
    readonly userId: string | null,
  ) {}
}
