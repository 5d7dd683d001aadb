import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An installation keeps the scopes its organization granted, and its tokens carry no more. Installations
 * from before get the scopes their app has now, the ones their tokens were being issued with: the
 * table's column, and, since their streams are the truth, an `integrations.InstallationScopesChanged`
 * appended to each live installation's stream (deleted ones hold no tokens and granted nothing).
 */
export class InstallationScopes1763800001800 implements MigrationInterface {
  name = 'InstallationScopes1763800001800';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sentry_app_installations ADD COLUMN scopes text[] NOT NULL DEFAULT '{}'`);
    await db.query(`
      WITH granted AS (
        UPDATE sentry_app_installations i
        SET scopes = ARRAY(SELECT DISTINCT scope COLLATE "C" FROM unnest(a.scopes) AS scope ORDER BY 1), version = i.version + 1, date_updated = date_trunc('milliseconds', now())
        FROM sentry_apps a
        WHERE a.id = i.app_id AND i.status <> 'deleted'
        RETURNING i.uuid, i.version, i.scopes, i.date_updated
      )
      INSERT INTO events (stream_id, stream_type, version, event_id, event_type, schema_version, data, metadata)
      SELECT 'sentry-app-installation-' || uuid, 'sentry_app_installation', version, gen_random_uuid(), 'integrations.InstallationScopesChanged', 1,
        jsonb_build_object(
          'installationUuid', uuid,
          'scopes', to_jsonb(scopes),
          'at', to_char(date_updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
        '{"actorType": "system"}'::jsonb
      FROM granted`);
  }

  /** The appended events stay: the event store is append-only, and replaying them is harmless. */
  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sentry_app_installations DROP COLUMN scopes`);
  }
}
