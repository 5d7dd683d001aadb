import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { SessionClient } from '../../session-starter';

/** The second step of a password sign-in: a TOTP code, a recovery code or a security key's signature, for the challenge the first step gave. */
export class CompleteTwoFactorSignInCommand {
  constructor(
    readonly challenge: string,
    readonly answer: { readonly code: string } | { readonly securityKey: AuthenticationResponseJSON },
    readonly ttlMs: number,
    readonly client: SessionClient,
  ) {}
}
