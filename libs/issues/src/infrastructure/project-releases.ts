import type { Sql } from '@faultline/platform';
import { latestRelease } from '../domain';

/** How many of a project's newest releases are weighed for its latest (Sentry looks at its releases by date). */
const RELEASES_WEIGHED = 1000;

/**
 * The project's latest release, as Sentry takes it for `inRelease: "latest"` and "next release",
 * of the releases its events named (the `release` tag's rollup), newest first by first sight.
 */
export async function latestProjectRelease(sql: Sql, projectId: string): Promise<string | null> {
  const rows = await sql.query<{ value: string }>(
    `SELECT value FROM tag_values WHERE project_id = $1::bigint AND key = 'release' ORDER BY first_seen DESC, value DESC LIMIT $2`,
    [projectId, RELEASES_WEIGHED],
  );
  return latestRelease(rows.map((row) => row.value)) ?? null;
}

/** Whether an event of the project named this release. */
export async function projectHasRelease(sql: Sql, projectId: string, release: string): Promise<boolean> {
  const [row] = await sql.query(`SELECT 1 FROM tag_values WHERE project_id = $1::bigint AND key = 'release' AND value = $2`, [projectId, release]);
  return row !== undefined;
}
