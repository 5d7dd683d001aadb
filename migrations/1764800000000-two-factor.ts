import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor authentication: each user's authenticators (a TOTP app and its recovery codes, kept
 * only as hashes), the pending second steps of password sign-ins (by the hash of their token), the
 * failed codes per user that every API process counts against, and the organizations that require
 * a second factor of their members.
 */
export class TwoFactor1764800000000 implements MigrationInterface {
  name = 'TwoFactor1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE identity.authenticators (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('totp', 'recovery')),
        totp_secret text,
        last_time_step bigint,
        recovery_code_hashes text[],
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        UNIQUE (user_id, type),
        CHECK ((type = 'totp') = (totp_secret IS NOT NULL)),
        CHECK ((type = 'recovery') = (recovery_code_hashes IS NOT NULL))
      );
      CREATE TABLE identity.two_factor_challenges (
        token_hash text PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        attempts integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX two_factor_challenges_expires_at ON identity.two_factor_challenges (expires_at);
      CREATE TABLE identity.two_factor_failures (
        user_id bigint PRIMARY KEY REFERENCES identity.users(id) ON DELETE CASCADE,
        window_started_at timestamptz NOT NULL,
        failures integer NOT NULL
      );
      ALTER TABLE identity.organizations ADD COLUMN require_2fa boolean NOT NULL DEFAULT false;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE identity.organizations DROP COLUMN require_2fa;
      DROP TABLE identity.two_factor_failures;
      DROP TABLE identity.two_factor_challenges;
      DROP TABLE identity.authenticators;
    `);
  }
}
