import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The invitation mails each organization sent lately (invites and reinvites), by a hash of the
 * address: the budget every API process counts against. Rows older than the longest window (a day)
 * are deleted as the organization sends more.
 */
export class InviteMails1763800003270 implements MigrationInterface {
  name = 'InviteMails1763800003270';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE identity.invite_mails (
        organization_id bigint NOT NULL REFERENCES identity.organizations(id) ON DELETE CASCADE,
        recipient_hash text NOT NULL,
        sent_at timestamptz NOT NULL
      );
      CREATE INDEX invite_mails_organization_sent_at ON identity.invite_mails (organization_id, sent_at);
      CREATE INDEX invite_mails_recipient_sent_at ON identity.invite_mails (organization_id, recipient_hash, sent_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE identity.invite_mails`);
  }
}
