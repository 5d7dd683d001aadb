import type { Sql } from '@faultline/platform';
import { latestRelease } from '../domain';

/** How many of a project's newest releases are weighed for its latest (Sentry looks at its releases by date). */
const RELEASES_WEIGHED = 1000;

/**
 * The project's latest release, as Sentry takes it for `inRelease: "latest"` and "next release",
 * of the releases its events named (the `release` tag's rollup), newest first by first sight.
 */
export async function latestProjectRelease(sql: Sql, projectId: string): Promise<string | null> {
  return (await latestProjectReleases(sql, [projectId])).get(projectId) ?? null;
}

/** The latest release of each of these projects that has seen one, by project id, in one statement. */
export async function latestProjectReleases(sql: Sql, projectIds: readonly string[]): Promise<Map<string, string>> {
  return latestOf(await projectReleasesNewestFirst(sql, projectIds));
}

/** The latest release of each project among its releases, newest first by first sight. */
export function latestOf(newestFirst: ReadonlyMap<string, readonly string[]>): Map<string, string> {
  const latest = new Map<string, string>();
  for (const [projectId, releases] of newestFirst) {
    const release = latestRelease(releases);
    if (release !== undefined) latest.set(projectId, release);
  }
  return latest;
}

/** Each project's releases its events named, newest first by first sight (the newest RELEASES_WEIGHED of them). */
export async function projectReleasesNewestFirst(sql: Sql, projectIds: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await sql.query<{ project_id: string; value: string }>(
    `SELECT p.id::text AS project_id, r.value FROM unnest($1::bigint[]) AS p (id)
     CROSS JOIN LATERAL (
       SELECT value FROM ingest.project_tag_values WHERE project_id = p.id AND key = 'release' ORDER BY first_seen DESC, value DESC LIMIT $2
     ) r`,
    [projectIds, RELEASES_WEIGHED],
  );
  const newestFirst = new Map<string, string[]>();
  for (const row of rows) {
    const releases = newestFirst.get(row.project_id);
    if (releases) releases.push(row.value);
    else newestFirst.set(row.project_id, [row.value]);
  }
  return newestFirst;
}

/** Whether an event of the project named this release. */
export async function projectHasRelease(sql: Sql, projectId: string, release: string): Promise<boolean> {
  const [row] = await sql.query(`SELECT 1 FROM ingest.project_tag_values WHERE project_id = $1::bigint AND key = 'release' AND value = $2`, [
    projectId,
    release,
  ]);
  return row !== undefined;
}
