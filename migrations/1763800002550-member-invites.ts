import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations by e-mail: a pending member of an organization, with the token its invite link
 * carries, until it is accepted (and becomes a member under the same id), revoked or expires.
 * Invites take their ids from the members' sequence, so `members/{id}` names either, never both.
 */
export class MemberInvites1763800002550 implements MigrationInterface {
  name = 'MemberInvites1763800002550';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE organization_invites (
        id bigint PRIMARY KEY DEFAULT nextval(pg_get_serial_sequence('organization_members', 'id')),
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('member', 'admin', 'manager', 'owner', 'billing')),
        team_ids bigint[] NOT NULL DEFAULT '{}',
        token text NOT NULL,
        expires_at timestamptz NOT NULL,
        inviter_user_id bigint REFERENCES users(id) ON DELETE SET NULL,
        date_created timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX organization_invites_email_key ON organization_invites (organization_id, lower(email));
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE organization_invites`);
  }
}
