/** Withdraws a pending member's invitation: its link stops working. */
export class RevokeInviteCommand {
  constructor(
    readonly organizationId: string,
    readonly memberId: string,
  ) {}
}
