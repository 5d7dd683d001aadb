import type { SessionClient } from '../../session-starter';

/**
 * The invitee follows the link: a new user sets the name and password they will sign in with, an
 * existing user proves it is them with theirs. Either way they join the organization with the
 * invite's role and teams; a new user is signed in at once (`session`), an existing one signs in
 * as usual afterwards (their second factor, if any, still applies).
 */
export class AcceptInviteCommand {
  constructor(
    readonly memberId: string,
    readonly token: string,
    readonly password: string,
    readonly name: string | undefined,
    readonly session: { ttlMs: number; client: SessionClient },
  ) {}
}
