import type { Sql } from '@faultline/platform';

/**
 * The project's latest release, as Sentry takes it for `inRelease: "latest"` and "next release":
 * of the releases its events named (the `release` tag's rollup), the one it first saw last.
 */
export async function latestProjectRelease(sql: Sql, projectId: string): Promise<string | null> {
  const [row] = await sql.query<{ value: string }>(
    `SELECT value FROM tag_values WHERE project_id = $1::bigint AND key = 'release' ORDER BY first_seen DESC, value DESC LIMIT 1`,
    [projectId],
  );
  return row?.value ?? null;
}
