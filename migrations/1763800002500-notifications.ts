import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The notifications context, in its own schema: the mail it queued (the delivery engine keeps how
 * each went), its users' notification settings, the people taking part in each issue, and the key
 * that signs unsubscribe links.
 */
export class Notifications1763800002500 implements MigrationInterface {
  name = 'Notifications1763800002500';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE SCHEMA IF NOT EXISTS notifications;

      CREATE TABLE notifications.mails (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL,
        delivery_guid text NOT NULL UNIQUE,
        user_id bigint,
        recipient text NOT NULL,
        reason text NOT NULL,
        subject text NOT NULL,
        issue_id bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX mails_organization_idx ON notifications.mails (organization_id, id DESC);

      CREATE TABLE notifications.user_settings (
        user_id bigint NOT NULL,
        type text NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (user_id, type)
      );

      CREATE TABLE notifications.issue_participants (
        issue_id bigint NOT NULL,
        user_id bigint NOT NULL,
        PRIMARY KEY (issue_id, user_id)
      );

      CREATE TABLE notifications.signing_keys (
        id smallint PRIMARY KEY CHECK (id = 1),
        secret text NOT NULL
      );
      INSERT INTO notifications.signing_keys (id, secret) VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP SCHEMA notifications CASCADE`);
  }
}
