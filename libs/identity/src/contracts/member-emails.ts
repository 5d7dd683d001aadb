import type { Sql } from '@faultline/platform';

/** A member of an organization as mail reaches them. */
export interface MemberRecipient {
  readonly userId: string;
  readonly email: string;
  readonly name: string;
}

/**
 * Identity owns members and their addresses: other contexts find whom to mail through this, in
 * their own transaction. Only active members of the organization are answered, each once.
 */
export abstract class MemberEmails {
  /** The members among these users. */
  abstract ofUsers(sql: Sql, organizationId: string, userIds: readonly string[]): Promise<MemberRecipient[]>;
  /** The members of these teams of the organization. */
  abstract ofTeams(sql: Sql, organizationId: string, teamIds: readonly string[]): Promise<MemberRecipient[]>;
  /** Every member of the organization. */
  abstract ofOrganization(sql: Sql, organizationId: string): Promise<MemberRecipient[]>;
  /** The organization's owners. */
  abstract owners(sql: Sql, organizationId: string): Promise<MemberRecipient[]>;
}
