/** Sends a pending member's invitation again, with a new link valid for another week (the old link stops working). */
export class ReinviteMemberCommand {
  constructor(
    readonly organizationId: string,
    readonly memberId: string,
    readonly inviterUserId: string | null,
  ) {}
}
