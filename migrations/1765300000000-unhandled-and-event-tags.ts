import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A stored event's own tags, when they are a list. */
const SDK_TAGS = `CASE WHEN json_typeof(e.data->'tags') = 'array' THEN e.data->'tags' END`;

/**
 * Whether an event was unhandled (some exception's mechanism says `handled: false`, Sentry's
 * rule) and whether any event of an issue was; and each event's tags as `key=value`, so that an
 * issue search's terms can be asked of one event together. Existing rows are filled from the
 * stored events, with the tags ingestion now counts: the SDK's, then level, environment, release,
 * user and those derived from the event's fields where the SDK set none of that key.
 */
export class UnhandledAndEventTags1765300000000 implements MigrationInterface {
  name = 'UnhandledAndEventTags1765300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.error_events ADD COLUMN unhandled boolean NOT NULL DEFAULT false, ADD COLUMN tags text[];
      ALTER TABLE issues.issues ADD COLUMN unhandled boolean NOT NULL DEFAULT false;
      UPDATE issues.error_events e SET
        unhandled = EXISTS (
          SELECT 1 FROM json_array_elements(CASE WHEN json_typeof(e.data->'exceptions') = 'array' THEN e.data->'exceptions' END) AS x(exception)
          WHERE x.exception->'mechanism'->>'handled' = 'false'),
        tags = ARRAY(
          SELECT t.key || '=' || t.value FROM (
            SELECT s.tag->>0 AS key, s.tag->>1 AS value, s.position AS position
              FROM json_array_elements(${SDK_TAGS}) WITH ORDINALITY AS s(tag, position)
            UNION ALL
            SELECT d.key, left(d.value, 200), 1000 + d.position FROM (VALUES
              ('level', e.data->>'level', true, 0),
              ('environment', e.data->>'environment', true, 1),
              ('release', e.data->>'release', true, 2),
              ('user', COALESCE('id:' || (e.data->'user'->>'id'), 'username:' || (e.data->'user'->>'username'), 'email:' || (e.data->'user'->>'email'),
                                'ip:' || COALESCE(e.data->'user'->>'ipAddress', e.data->'user'->>'ip_address')), true, 3),
              ('dist', e.data->>'dist', false, 4),
              ('server_name', e.data->>'serverName', false, 5),
              ('transaction', e.data->>'transaction', false, 6),
              ('url', e.data->'request'->>'url', false, 7),
              ('mechanism', e.data->'exceptions'->-1->'mechanism'->>'type', false, 8),
              ('handled', CASE e.data->'exceptions'->-1->'mechanism'->>'handled' WHEN 'true' THEN 'yes' WHEN 'false' THEN 'no' END, false, 9)
            ) AS d(key, value, always, position)
            WHERE d.always OR NOT EXISTS (SELECT 1 FROM json_array_elements(${SDK_TAGS}) AS s(tag) WHERE s.tag->>0 = d.key)
          ) AS t WHERE t.key IS NOT NULL AND t.value IS NOT NULL AND t.value <> ''
          GROUP BY t.key, t.value ORDER BY min(t.position));
      UPDATE issues.issues SET unhandled = true WHERE id IN (SELECT issue_id FROM issues.error_events WHERE unhandled);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE issues.issues DROP COLUMN unhandled;
      ALTER TABLE issues.error_events DROP COLUMN unhandled, DROP COLUMN tags;
    `);
  }
}
