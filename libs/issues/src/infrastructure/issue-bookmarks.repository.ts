import { Injectable } from '@nestjs/common';
import { Database, type Sql } from '@faultline/platform';

/** Each user's bookmarked issues (Sentry's `isBookmarked`, `bookmarks:me`). */
@Injectable()
export class IssueBookmarksRepository {
  constructor(private readonly database: Database) {}

  /** Bookmarks (or un-bookmarks) these issues for the user; bookmarking again keeps the first date. */
  async set(sql: Sql, issueIds: readonly string[], userId: string, bookmarked: boolean, at: Date): Promise<void> {
    await sql.execute(
      bookmarked
        ? `INSERT INTO issues.issue_bookmarks (issue_id, user_id, date_added)
           SELECT id, $2::bigint, $3::timestamptz FROM unnest($1::bigint[]) AS id ORDER BY id ON CONFLICT DO NOTHING`
        : `DELETE FROM issues.issue_bookmarks WHERE issue_id = ANY($1::bigint[]) AND user_id = $2::bigint`,
      bookmarked ? [issueIds, userId, at.toISOString()] : [issueIds, userId],
    );
  }

  /** Which of these issues the user has bookmarked (none for a caller without a user). */
  async bookmarkedOf(userId: string | undefined, issueIds: readonly string[]): Promise<Set<string>> {
    if (!userId || issueIds.length === 0) return new Set();
    const rows = await this.database.query<{ issue_id: string }>(
      `SELECT issue_id::text AS issue_id FROM issues.issue_bookmarks WHERE user_id = $1::bigint AND issue_id = ANY($2::bigint[])`,
      [userId, issueIds],
    );
    return new Set(rows.map((row) => row.issue_id));
  }
}
