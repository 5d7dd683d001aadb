/** A browser asks to sign in to an organization through its SAML identity provider (SP-initiated). */
export class StartSamlSignInCommand {
  constructor(readonly organizationSlug: string) {}
}
