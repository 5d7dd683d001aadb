import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each issue's tag values (count, first and last seen), kept at ingest time like the project's:
 * the issue's tags, its tag values endpoint and the tag keys of its detail. Existing issues get
 * them from their stored events, under the keys ingestion counts: the SDK's tags, level,
 * environment, release and user.
 */
export class IssueTagValues1763800001600 implements MigrationInterface {
  name = 'IssueTagValues1763800001600';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE issue_tag_values (
        issue_id bigint NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        key text NOT NULL,
        value text NOT NULL,
        times_seen bigint NOT NULL,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL,
        PRIMARY KEY (issue_id, key, value)
      );
      INSERT INTO issue_tag_values (issue_id, key, value, times_seen, first_seen, last_seen)
        SELECT e.issue_id, t.key, t.value, count(*), min(e.occurred_at), max(e.occurred_at)
        FROM error_events e
        CROSS JOIN LATERAL (
          SELECT tag->>0 AS key, tag->>1 AS value
            FROM json_array_elements(CASE WHEN json_typeof(e.data->'tags') = 'array' THEN e.data->'tags' ELSE '[]' END) AS tag
          UNION ALL SELECT 'level', e.data->>'level'
          UNION ALL SELECT 'environment', e.data->>'environment'
          UNION ALL SELECT 'release', e.data->>'release'
          UNION ALL SELECT 'user', CASE
            WHEN COALESCE(e.data->'user'->>'id', '') <> '' THEN 'id:' || (e.data->'user'->>'id')
            WHEN COALESCE(e.data->'user'->>'username', '') <> '' THEN 'username:' || (e.data->'user'->>'username')
            WHEN COALESCE(e.data->'user'->>'email', '') <> '' THEN 'email:' || (e.data->'user'->>'email')
            WHEN COALESCE(e.data->'user'->>'ipAddress', '') <> '' THEN 'ip:' || (e.data->'user'->>'ipAddress')
          END
        ) AS t
        WHERE t.key IS NOT NULL AND t.value IS NOT NULL AND t.value <> ''
        GROUP BY 1, 2, 3;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE issue_tag_values`);
  }
}
