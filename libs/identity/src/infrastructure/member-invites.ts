import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { type Invitation, MemberInvites } from '../contracts/member-invites';
import { InvitesRepository } from './invites.repository';

@Injectable()
export class MemberInvitesReader extends MemberInvites {
  constructor(private readonly invites: InvitesRepository) {
    super();
  }

  async invitation(sql: Sql, memberId: string): Promise<Invitation | null> {
    const row = await this.invites.find(sql, memberId);
    if (!row) return null;
    return {
      memberId: row.id,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      email: row.email,
      token: row.token,
      expiresAt: row.expires_at.toISOString(),
      inviterName: row.inviter_name,
    };
  }
}
