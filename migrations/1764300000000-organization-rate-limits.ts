import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate limits of an organization: its quota windows per data category (counted per envelope, the
 * ended windows dropped by the same statement), its accepted errors per hour (the spike baseline,
 * counted by the admission's group commit), and its settings and spike state (overrides of the
 * instance's quotas, spike protection on or off, the spike in progress).
 */
export class OrganizationRateLimits1764300000000 implements MigrationInterface {
  name = 'OrganizationRateLimits1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ingest.organization_quota_windows (
        organization_id bigint NOT NULL,
        category text NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (organization_id, category, window_start)
      );
      CREATE TABLE ingest.organization_error_volume (
        organization_id bigint NOT NULL,
        hour timestamptz NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (organization_id, hour)
      );
      CREATE INDEX organization_error_volume_hour_idx ON ingest.organization_error_volume (hour);
      CREATE TABLE ingest.organization_rate_limits (
        organization_id bigint PRIMARY KEY,
        spike_protection boolean NOT NULL DEFAULT true,
        quotas jsonb NOT NULL DEFAULT '{}',
        spike_threshold integer,
        spike_started_at timestamptz,
        spike_limited_until timestamptz,
        next_evaluation_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX organization_rate_limits_due_idx ON ingest.organization_rate_limits (next_evaluation_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ingest.organization_rate_limits, ingest.organization_error_volume, ingest.organization_quota_windows`);
  }
}
