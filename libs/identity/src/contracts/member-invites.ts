import type { Sql } from '@faultline/platform';

/** A pending member's invitation, as its mail shows it. */
export interface Invitation {
  readonly memberId: string;
  readonly organizationId: string;
  readonly organizationName: string;
  readonly email: string;
  /** The secret of the invite link; it changes when the invitation is sent again. */
  readonly token: string;
  readonly expiresAt: string;
  readonly inviterName: string | null;
}

/** Identity owns invitations (`identity.MemberInvited`); the notifications context reads one here, in its own transaction, to mail it. */
export abstract class MemberInvites {
  /** The invitation as it stands now; null once accepted or revoked. */
  abstract invitation(sql: Sql, memberId: string): Promise<Invitation | null>;
}

/** The page an invitation's link opens (Sentry's path). */
export const acceptInviteUrl = (publicUrl: string, memberId: string, token: string): string => `${publicUrl}/accept/${memberId}/${token}/`;
