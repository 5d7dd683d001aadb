/** Invites someone to an organization by e-mail: a pending member, and a mail with the link to join. */
export class InviteMemberCommand {
  constructor(
    readonly organizationId: string,
    readonly email: unknown,
    readonly role: unknown,
    readonly teams: unknown,
    readonly inviterUserId: string | null,
    /** What the inviter may do here: nobody invites a role that may do more. */
    readonly inviterScopes: ReadonlySet<string>,
  ) {}
}
