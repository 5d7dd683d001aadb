/**
 * The invitee follows the link: a new user sets the password they will sign in with, an existing
 * user proves it is them with theirs. Either way they join the organization with the invite's role
 * and teams.
 */
export class AcceptInviteCommand {
  constructor(
    readonly memberId: string,
    readonly token: string,
    readonly password: string,
  ) {}
}
