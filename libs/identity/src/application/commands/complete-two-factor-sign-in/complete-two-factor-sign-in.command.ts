import type { SessionClient } from '../../session-starter';

/** The second step of a password sign-in: a TOTP code or a recovery code for the challenge the first step gave. */
export class CompleteTwoFactorSignInCommand {
  constructor(
    readonly challenge: string,
    readonly code: string,
    readonly ttlMs: number,
    readonly client: SessionClient,
  ) {}
}
