import type { SsoClient } from '../../sso-sessions';

/** The identity provider posted a SAML response to an organization's assertion consumer. */
export class CompleteSamlSignInCommand {
  constructor(
    readonly organizationSlug: string,
    readonly samlResponse: string,
    /** Present when this service started the sign-in; an IdP-initiated response may carry none. */
    readonly relayState: string | undefined,
    readonly ttlMs: number,
    readonly client: SsoClient,
  ) {}
}
