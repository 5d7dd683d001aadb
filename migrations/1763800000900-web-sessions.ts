import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing in to the web interface: a user's password (scrypt, in identity's users table) and the
 * server-side sessions a browser holds by cookie. A session is stored only as the SHA-256 of its
 * cookie value, with its own CSRF token, an expiry, and a revocation time set on sign-out.
 */
export class WebSessions1763800000900 implements MigrationInterface {
  name = 'WebSessions1763800000900';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE users ADD COLUMN password_hash text;

      CREATE TABLE user_sessions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        csrf_token text NOT NULL,
        user_agent text,
        ip_address text,
        date_created timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);
      CREATE INDEX user_sessions_expires_idx ON user_sessions (expires_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE user_sessions;
      ALTER TABLE users DROP COLUMN password_hash;
    `);
  }
}
