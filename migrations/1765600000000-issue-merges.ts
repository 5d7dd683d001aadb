import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merging issues (Sentry's group hashes and redirects): every fingerprint hash of a project names
 * the issue its events group into, so a merged issue's fingerprints keep landing in the primary;
 * a merged issue's id answers as its primary; each stored event keeps the hash it was grouped by
 * (null: the hash its issue was created with), so an issue's hashes can list their events. And
 * the indexes of similar issues (same title or culprit in a project).
 */
export class IssueMerges1765600000000 implements MigrationInterface {
  name = 'IssueMerges1765600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE issues.issue_hashes (
        project_id bigint NOT NULL,
        hash text NOT NULL,
        issue_id bigint NOT NULL REFERENCES issues.issues (id) ON DELETE CASCADE,
        PRIMARY KEY (project_id, hash)
      );
      CREATE INDEX issue_hashes_issue_idx ON issues.issue_hashes (issue_id);
      INSERT INTO issues.issue_hashes (project_id, hash, issue_id) SELECT project_id, fingerprint_hash, id FROM issues.issues;

      CREATE TABLE issues.issue_redirects (
        previous_issue_id bigint PRIMARY KEY,
        issue_id bigint NOT NULL REFERENCES issues.issues (id) ON DELETE CASCADE
      );
      CREATE INDEX issue_redirects_issue_idx ON issues.issue_redirects (issue_id);

      ALTER TABLE issues.error_events ADD COLUMN fingerprint_hash text;

      -- Similar issues: the same title or culprit in the project (by digest: titles can be long).
      CREATE INDEX issues_project_title_idx ON issues.issues (project_id, md5(title));
      CREATE INDEX issues_project_culprit_idx ON issues.issues (project_id, md5(culprit)) WHERE culprit <> '';
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP INDEX issues.issues_project_title_idx, issues.issues_project_culprit_idx;
      ALTER TABLE issues.error_events DROP COLUMN fingerprint_hash;
      DROP TABLE issues.issue_redirects, issues.issue_hashes;
    `);
  }
}
