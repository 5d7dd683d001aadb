import type { SsoClient } from '../../sso-sessions';

/** The identity provider sent the browser back to the callback with a code (or an error) and the state. */
export class CompleteOidcSignInCommand {
  constructor(
    readonly query: URLSearchParams,
    /** The secret of the browser's sign-in cookie; undefined when the browser has none. */
    readonly browserSecret: string | undefined,
    readonly ttlMs: number,
    readonly client: SsoClient,
  ) {}
}
