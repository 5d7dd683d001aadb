/** A browser asks to sign in to an organization through its OpenID Connect provider. */
export class StartOidcSignInCommand {
  constructor(
    readonly organizationSlug: string,
    /** The secret the browser's cookie holds for this sign-in (see oidcBrowserChecks). */
    readonly browserSecret: string,
  ) {}
}
