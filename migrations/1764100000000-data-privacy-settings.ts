import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sentry's data scrubbing settings of projects (theirs: scrub data and default rules on) and of
 * organizations (requirements over every project: off until set), and the view through which the
 * projects context reads an organization's, to give ingest a project's effective settings.
 */
export class DataPrivacySettings1764100000000 implements MigrationInterface {
  name = 'DataPrivacySettings1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE projects.projects
        ADD COLUMN data_scrubber boolean NOT NULL DEFAULT true,
        ADD COLUMN data_scrubber_defaults boolean NOT NULL DEFAULT true,
        ADD COLUMN sensitive_fields text[] NOT NULL DEFAULT '{}',
        ADD COLUMN safe_fields text[] NOT NULL DEFAULT '{}',
        ADD COLUMN scrub_ip_addresses boolean NOT NULL DEFAULT false,
        ADD COLUMN store_crash_reports integer;
      ALTER TABLE identity.organizations
        ADD COLUMN data_scrubber boolean NOT NULL DEFAULT false,
        ADD COLUMN data_scrubber_defaults boolean NOT NULL DEFAULT false,
        ADD COLUMN sensitive_fields text[] NOT NULL DEFAULT '{}',
        ADD COLUMN safe_fields text[] NOT NULL DEFAULT '{}',
        ADD COLUMN scrub_ip_addresses boolean NOT NULL DEFAULT false,
        ADD COLUMN store_crash_reports integer NOT NULL DEFAULT 0;
      CREATE VIEW identity.organization_data_privacy AS
        SELECT id AS organization_id, data_scrubber, data_scrubber_defaults, sensitive_fields, safe_fields, scrub_ip_addresses, store_crash_reports
        FROM identity.organizations;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP VIEW identity.organization_data_privacy;
      ALTER TABLE identity.organizations
        DROP COLUMN data_scrubber, DROP COLUMN data_scrubber_defaults, DROP COLUMN sensitive_fields,
        DROP COLUMN safe_fields, DROP COLUMN scrub_ip_addresses, DROP COLUMN store_crash_reports;
      ALTER TABLE projects.projects
        DROP COLUMN data_scrubber, DROP COLUMN data_scrubber_defaults, DROP COLUMN sensitive_fields,
        DROP COLUMN safe_fields, DROP COLUMN scrub_ip_addresses, DROP COLUMN store_crash_reports;
    `);
  }
}
