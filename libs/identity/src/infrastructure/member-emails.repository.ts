import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { MemberEmails, type MemberRecipient } from '../contracts/member-emails';

const RECIPIENT = `SELECT DISTINCT u.id::text AS "userId", u.email, u.name
  FROM identity.organization_members m JOIN identity.users u ON u.id = m.user_id
  WHERE m.organization_id = $1::bigint AND m.is_active AND u.is_active AND u.email <> ''`;

@Injectable()
export class MemberEmailsRepository extends MemberEmails {
  async ofUsers(sql: Sql, organizationId: string, userIds: readonly string[]): Promise<MemberRecipient[]> {
    if (userIds.length === 0) return [];
    return sql.query<MemberRecipient>(`${RECIPIENT} AND m.user_id = ANY($2::bigint[]) ORDER BY u.email`, [organizationId, userIds]);
  }

  async ofTeams(sql: Sql, organizationId: string, teamIds: readonly string[]): Promise<MemberRecipient[]> {
    if (teamIds.length === 0) return [];
    return sql.query<MemberRecipient>(
      `${RECIPIENT} AND m.id IN (SELECT member_id FROM identity.team_members WHERE team_id = ANY($2::bigint[])) ORDER BY u.email`,
      [organizationId, teamIds],
    );
  }

  async ofOrganization(sql: Sql, organizationId: string): Promise<MemberRecipient[]> {
    return sql.query<MemberRecipient>(`${RECIPIENT} ORDER BY u.email`, [organizationId]);
  }

  async owners(sql: Sql, organizationId: string): Promise<MemberRecipient[]> {
    return sql.query<MemberRecipient>(`${RECIPIENT} AND m.role = 'owner' ORDER BY u.email`, [organizationId]);
  }
}
