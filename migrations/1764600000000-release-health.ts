import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Release health: sessions folded into counts per project, release, environment and hour, and the
 * exact sets per hour of users and of errored session ids (bounded per project and hour), from
 * which crash-free rates and distinct users are read.
 */
export class ReleaseHealth1764600000000 implements MigrationInterface {
  name = 'ReleaseHealth1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE releases.session_counts (
        project_id bigint NOT NULL,
        bucket timestamptz NOT NULL,
        release text NOT NULL,
        environment text NOT NULL,
        organization_id bigint NOT NULL,
        started bigint NOT NULL,
        errored bigint NOT NULL,
        abnormal bigint NOT NULL,
        crashed bigint NOT NULL,
        PRIMARY KEY (project_id, bucket, release, environment)
      );
      CREATE INDEX session_counts_release_idx ON releases.session_counts (organization_id, release, bucket);
      CREATE TABLE releases.session_members (
        project_id bigint NOT NULL,
        bucket timestamptz NOT NULL,
        kind smallint NOT NULL,
        release text NOT NULL,
        environment text NOT NULL,
        member bigint NOT NULL,
        PRIMARY KEY (project_id, bucket, kind, release, environment, member)
      );
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE releases.session_members; DROP TABLE releases.session_counts;`);
  }
}
