import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * WebAuthn security keys (Sentry's `u2f` interface): one `u2f` authenticator per user holding any
 * number of credentials (public key, signature counter, name), the pending enrolments bound to the
 * browser session that started them (by the hash of their challenge), and the hash of the
 * WebAuthn challenge a pending sign-in's second step was given.
 */
export class SecurityKeys1765000000000 implements MigrationInterface {
  name = 'SecurityKeys1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE identity.authenticators DROP CONSTRAINT authenticators_type_check;
      ALTER TABLE identity.authenticators ADD CONSTRAINT authenticators_type_check CHECK (type IN ('totp', 'recovery', 'u2f'));
      CREATE TABLE identity.security_keys (
        id bigserial PRIMARY KEY,
        authenticator_id bigint NOT NULL REFERENCES identity.authenticators(id) ON DELETE CASCADE,
        credential_id text NOT NULL UNIQUE,
        public_key bytea NOT NULL,
        sign_count bigint NOT NULL,
        transports text[] NOT NULL DEFAULT '{}',
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz
      );
      CREATE INDEX security_keys_authenticator ON identity.security_keys (authenticator_id);
      CREATE TABLE identity.security_key_enrolments (
        challenge_hash text PRIMARY KEY,
        session_id bigint NOT NULL REFERENCES identity.user_sessions(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX security_key_enrolments_expires_at ON identity.security_key_enrolments (expires_at);
      ALTER TABLE identity.two_factor_challenges ADD COLUMN webauthn_challenge_hash text;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE identity.two_factor_challenges DROP COLUMN webauthn_challenge_hash;
      DROP TABLE identity.security_key_enrolments;
      DROP TABLE identity.security_keys;
      DELETE FROM identity.authenticators WHERE type = 'u2f';
      ALTER TABLE identity.authenticators DROP CONSTRAINT authenticators_type_check;
      ALTER TABLE identity.authenticators ADD CONSTRAINT authenticators_type_check CHECK (type IN ('totp', 'recovery'));
    `);
  }
}
