import type { SsoClient } from '../../sso-sessions';

/** The owner of an existing account proves it with the password, and links the identity provider's user to it. */
export class LinkSsoAccountCommand {
  constructor(
    readonly linkToken: string,
    readonly password: string,
    readonly ttlMs: number,
    readonly client: SsoClient,
  ) {}
}
