import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sentry's per-user issue bookmarks (`isBookmarked`, `bookmarks:me`) and saved issue searches
 * (`/organizations/{org}/searches/`), both in the issues context. A saved search is its owner's
 * (`visibility = 'owner'`) or the whole organization's (`'organization'`, owner kept as creator).
 */
export class IssueBookmarksAndSavedSearches1765400000000 implements MigrationInterface {
  name = 'IssueBookmarksAndSavedSearches1765400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE issues.issue_bookmarks (
        issue_id bigint NOT NULL REFERENCES issues.issues (id) ON DELETE CASCADE,
        user_id bigint NOT NULL,
        date_added timestamptz NOT NULL,
        PRIMARY KEY (issue_id, user_id)
      );
      CREATE INDEX issue_bookmarks_user_idx ON issues.issue_bookmarks (user_id, issue_id);
      CREATE TABLE issues.saved_searches (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL,
        owner_id bigint,
        visibility text NOT NULL CHECK (visibility IN ('owner', 'organization')),
        name text NOT NULL,
        query text NOT NULL,
        sort text NOT NULL,
        date_created timestamptz NOT NULL,
        CHECK (visibility = 'organization' OR owner_id IS NOT NULL)
      );
      CREATE INDEX saved_searches_organization_idx ON issues.saved_searches (organization_id, owner_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE issues.saved_searches;
      DROP TABLE issues.issue_bookmarks;
    `);
  }
}
