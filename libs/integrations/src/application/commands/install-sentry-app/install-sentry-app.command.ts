import type { Scope } from '@faultline/kernel';

/**
 * Installs an app (by slug) on an organization. Installing grants the app's scopes in that
 * organization, so the installer must hold them (`installerScopes`, what it holds there).
 */
export class InstallSentryAppCommand {
  constructor(
    readonly organization: { readonly id: string; readonly slug: string },
    readonly slug: string,
    readonly userId: string | null,
    readonly installerScopes: ReadonlySet<Scope>,
  ) {}
}
